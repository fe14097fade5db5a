#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end on real processes: a busy loop whose head does twice the
# work FAILs (and the gate exits 1); the same program as base and head is
# never FAIL; an adaptive A/A run converges without a false alarm.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin"
common="--reps 12 --max-reps 12 --null-arm --no-sanity-gate -q --scale 0.3"
spin="$spin drain_ms=50 release_bound_ms=100"
expect_rc 1 "$PERFAB" run $common --arm "base=$spin slowdown_pct=0" --arm "head=$spin slowdown_pct=100" --out slow.json
grep_out "overall: FAIL"
expect_rc 1 "$PERFAB" gate slow.json
jq -e '.rules == "perfab/2"' slow.json >/dev/null || fail "rules not recorded"
expect_rc 1 "$PERFAB" ledger --format json slow.json
jq -e '.overall == "FAIL" and (.rows[0].cells[] | select(.metric == "cpu") | .verdict == "FAIL")' "$T/out" >/dev/null ||
	fail "ledger json: cpu must FAIL"
# The seed's rule gives the same verdict on a 2x effect.
expect_rc 1 "$PERFAB" gate --rules rule12 slow.json

expect_verdict "$PERFAB" run $common --scale 0.1 --arm "base=$spin" --arm "head=$spin" --max-reps 60 --out aa.json
grep_out "overall:"
if grep -q "overall: FAIL" "$T/out"; then
	cat "$T/out" >&2
	fail "an A/A run FAILed"
fi
# gate --inconclusive pass turns INCONCLUSIVE (3) into 0, never a FAIL.
"$PERFAB" gate aa.json >/dev/null 2>&1
rc=$?
"$PERFAB" gate --inconclusive pass aa.json >/dev/null 2>&1
rc2=$?
case "$rc/$rc2" in
0/0|3/0) ;;
*) fail "gate exit codes $rc / $rc2 for an A/A run" ;;
esac
# Markdown renders a table with the verdict.
expect_verdict "$PERFAB" ledger --format markdown aa.json
grep_out "| row | arm | n |"
exit 0
