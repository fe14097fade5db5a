#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Ledger details an independent reimplementation of the rules disagreed
# with: a control row's RSS floor, fail_reason only on a failed row, no
# "accept" when nothing was judged, and a null change of +-inf (a base of
# 0) that used to switch off FAIL. Each case is a real artifact edited
# with jq so that every paired change is known.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin work=1000 drain_ms=0 release_bound_ms=0"
# An A/A artifact to edit below (6 reps: the edited ones must reach PASS and
# FAIL); its null arm guards FAIL, so the run itself does not FAIL.
expect_not_fail "an A/A run with its null arm does not FAIL" "$PERFAB" run -q --reps 6 --max-reps 6 --no-sanity-gate \
	--arm "base=$spin" --arm "head=$spin" --out aa.json
jq -e '[.arms[].name] == ["base", "head", "null"] and .rows[0].reps[0].results.base.rss_floor > 0' aa.json >/dev/null ||
	fail "the spin row must report an rss_floor"
# head and null equal base in every metric: every change is exactly 0.
same='.rows[0].reps |= map(.results.base as $b | .results.head = $b | .results.null = $b)'

# A control row gets its rss_floor and floor check too (no credit).
jq "$same | .rows[0].control = true" aa.json >control.json
# Every change exactly 0: PASS.
expect_rc 0 "$PERFAB" ledger --format json control.json
jq -e '.rows[0].control and (.rows[0].rss_floor > 0) and .rows[0].floor_inconsistent == false and .rows[0].saved_pct == 0' \
	"$T/out" >/dev/null || fail "control row floor: $(jq -c '.rows[0] | del(.cells)' "$T/out")"
jq "$same | .rows[0].control = true | .rows[0].reps |= map(.results.base.rss_floor = 1e12)" aa.json >control2.json
expect_rc 0 "$PERFAB" ledger --format json control2.json
jq -e '.rows[0].floor_inconsistent == true' "$T/out" >/dev/null || fail "control row: inconsistent floor not flagged"

# fail_reason only on a row that failed.
jq "$same | .rows[0].fail_reason = \"left over\"" aa.json >reason.json
expect_rc 0 "$PERFAB" ledger --format json reason.json
jq -e '.rows[0] | has("fail_reason") | not' "$T/out" >/dev/null || fail "fail_reason on a row that did not fail"

# Nothing judged (every judged metric of head missing): never "accept".
jq '.rows[0].reps |= map(.results.head |= with_entries(if (.key | IN("throughput", "cpu", "instructions", "minor_faults", "peak_rss", "drain_rss")) then .value = null else . end))' \
	aa.json >none.json
expect_rc 3 "$PERFAB" ledger --format json none.json
jq -e '.disposition.cells == 0 and (.disposition.kind | startswith("accept") | not)' "$T/out" >/dev/null ||
	fail "nothing judged: disposition $(jq -c .disposition "$T/out")"

# +-inf null change: minor_faults of base 0 in rep 0 where null saw 3, and
# head 100x worse. Every rule set FAILs it (rule12 used to PASS it,
# perfab/1 could not FAIL it); the noise is reported as infinite (null).
jq "$same | .rows[0].reps |= (to_entries | map(.key as \$i | .value
      | .results.base.minor_faults = (if \$i == 0 then 0 else 50 end)
      | .results.null.minor_faults = (if \$i == 0 then 3 else 50 end)
      | .results.head.minor_faults = (if \$i == 0 then 300 else 5000 end)))" aa.json >inf.json
for rules in perfab/2 perfab/1 rule12; do
	expect_rc 1 "$PERFAB" ledger --rules "$rules" --format json inf.json
	jq -e '.rows[0].cells[] | select(.metric == "minor_faults") | .verdict == "FAIL" and .noise == null and .noise_infinite' \
		"$T/out" >/dev/null || fail "$rules: $(jq -c '.rows[0].cells[] | select(.metric == "minor_faults")' "$T/out")"
done
exit 0
