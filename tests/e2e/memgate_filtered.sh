#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# memgate refuses a filtered run (it measured only some of the baseline's
# scenarios) with its own exit code, 6, among full runs too; a run with an
# extra scenario the baseline lacks is gated on the rest, with a warning.
. "${top_srcdir}/tests/lib/test-lib.sh"

make_baseline
# One scenario only: shard 3/3 of the battery is exactly row "large".
expect_rc 3 "$PERFAB" run -q --config plain.json --reps 2 --max-reps 2 --shard 3/3 --out one.json
jq -e '[.rows[].name] == ["large"]' one.json >/dev/null || fail "filtered run rows"
expect_rc 6 "$PERFAB" memgate check one.json --baseline baseline.json
grep_err "'one.json' is a filtered run: it measured 1 of the baseline's 3 scenarios"
grep_err "missing 'small', 'medium'"
[ ! -s "$T/out" ] || fail "a refused memgate printed a table"
runs plain.json full 1
expect_rc 6 "$PERFAB" memgate check full1.json one.json --baseline baseline.json
grep_err "'one.json' is a filtered run"

# An extra scenario: warned about, not gated, not a refusal.
cat >extra.json <<JSON
{"arms": [{"name": "base", "argv": ["$WL/perfab-spin", "work=1000", "drain_ms=10", "release_bound_ms=20"]},
          {"name": "head", "argv": ["$WL/perfab-spin", "work=1000", "drain_ms=10", "release_bound_ms=20"]}],
 "rows": [{"name": "small", "argv": ["extra_mib=4"]}, {"name": "medium", "argv": ["extra_mib=16"]},
          {"name": "large", "argv": ["extra_mib=24"]}, {"name": "huge", "argv": ["extra_mib=40"]}]}
JSON
expect_rc 3 "$PERFAB" run -q --config extra.json --reps 2 --max-reps 2 --out more.json
expect_rc 0 "$PERFAB" memgate check more.json --baseline baseline.json
grep_err "scenario 'huge' has no baseline: not gated"
exit 0
