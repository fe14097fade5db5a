#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# memgate positive controls: the calibration workload's leak (leak_mib) and
# extra memory (extra_mib=64) in one scenario fail the gate (exit 1), the
# table marks that scenario in every run and names it as the first jump;
# a tolerance wide enough lets the same runs pass.
. "${top_srcdir}/tests/lib/test-lib.sh"

make_baseline
battery leak.json '"leak_mib=16"'
runs leak.json leak 2
expect_rc 1 "$PERFAB" memgate check leak1.json leak2.json --baseline baseline.json
grep_out "memgate: FAIL"
grep_out "1 of 3 scenarios above baseline +5.0%"
grep_out "^large .*[0-9]\* .*[0-9]\* .*REGRESSION$"
grep_out "first jump: 'large'"
grep -q "^small .* ok$" "$T/out" || fail "small must stay ok"
expect_rc 0 "$PERFAB" memgate check leak1.json leak2.json --baseline baseline.json --tolerance 500
grep_out "memgate: PASS"

battery fat.json '"extra_mib=64"'
runs fat.json fat 1
expect_rc 1 "$PERFAB" memgate check fat1.json --baseline baseline.json
grep_out "^large .*REGRESSION$"
# A 2% tolerance is stricter than 5%, never looser.
expect_rc 1 "$PERFAB" memgate check fat1.json --baseline baseline.json --tolerance 2
exit 0
