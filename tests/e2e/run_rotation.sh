#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The balanced rotation end to end: three /bin/true arms, 6 reps: a complete artifact,
# every arm in every position exactly twice, block 1 the reverse of block 0.
. "${top_srcdir}/tests/lib/test-lib.sh"

# A/A with the null arm, which guards FAIL.
expect_not_fail "an A/A run does not FAIL" "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true \
	--null-arm --reps 6 --max-reps 6 --seed 7 --out r.json
jq -e . r.json >/dev/null || fail "r.json is not valid JSON"
[ "$(jq -r .complete r.json)" = true ] || fail "complete is not true"
[ "$(jq -r .protocol r.json)" = rotate-reverse/1 ] || fail "protocol"
[ "$(jq -r .seed r.json)" = 7 ] || fail "seed not recorded"
[ "$(jq '.rows[0].reps | length' r.json)" = 6 ] || fail "not 6 reps"
[ "$(jq -c '[.arms[].name]' r.json)" = '["base","head","null"]' ] || fail "arms"
for arm in base head null; do
	for pos in 0 1 2; do
		n=$(jq --arg a $arm --argjson p $pos \
			'[.rows[0].reps[] | select(.order[$p] == $a)] | length' r.json)
		[ "$n" = 2 ] || fail "arm $arm ran $n times in position $pos, not 2"
	done
done
for j in 0 1 2; do
	fwd=$(jq -c ".rows[0].reps[$j].order" r.json)
	rev=$(jq -c ".rows[0].reps[$((j + 3))].order | reverse" r.json)
	[ "$fwd" = "$rev" ] || fail "block 1 rep $j is not block 0's reversed ($fwd vs $rev)"
	[ "$(jq ".rows[0].reps[$j].block" r.json)" = 0 ] || fail "block numbers"
	[ "$(jq ".rows[0].reps[$((j + 3))].block" r.json)" = 1 ] || fail "block numbers"
done
# Every arm records the process-level metrics; unmeasurable ones are null
# WITH a reason, never 0.
jq -e '.rows[0].reps[0].results.base | .wall > 0 and .cpu >= 0 and .minor_faults > 0 and .peak_rss > 0' r.json >/dev/null ||
	fail "process metrics missing"
jq -e '.rows[0].reps[0] | .results.base.cycles == null and (.null_reasons.base.cycles | length > 0)' r.json >/dev/null ||
	fail "an unmeasured counter must be null with a reason"
# 7 reps round up to 9 (complete blocks), and say so (A/A with the null
# arm: no FAIL).
expect_not_fail "an A/A run does not FAIL" "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true \
	--null-arm --reps 7 --max-reps 7 --out r9.json
grep_err "rounded up to 9"
[ "$(jq '.rows[0].reps | length' r9.json)" = 9 ] || fail "7 reps not rounded to 9"
# Pinning: children away from the sampler's PU, the binding obtained
# recorded; with one usable PU (taskset), unpinned and said so.
jq -e '.run.binding | has("pinned") and has("children_obtained")' r.json >/dev/null || fail "binding not recorded"
if [ "$(jq .run.binding.allowed_pus r.json)" -ge 2 ]; then
	jq -e '.run.binding | .pinned and .children_obtained != null and
		(.sampler_cpu as $s | .children_cpus | split(",") | index($s) | not)' r.json >/dev/null ||
		fail "children not pinned away from the sampler: $(jq -c .run.binding r.json)"
fi
if command -v taskset >/dev/null 2>&1; then
	expect_rc 3 taskset -c 0 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --reps 2 --max-reps 2 --out one.json
	jq -e '.run.binding | .pinned == false and .allowed_pus == 1 and (.note | test("unpinned"))' one.json >/dev/null ||
		fail "on one PU the run must be unpinned and say so: $(jq -c .run.binding one.json)"
fi
expect_rc 2 "$PERFAB" run -q --arm base=/bin/true --arm head=/bin/true --cpus 99
grep_err "cpus"
exit 0
