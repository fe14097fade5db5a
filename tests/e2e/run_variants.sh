#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Head variants (--head-env): three variants give five arms (base, head,
# hd01, hd02, null), each in every position equally often, each variant
# with its env, and a ledger section per variant. Errors: an empty item,
# mismatched variant counts, no head arm.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin work=100000 drain_ms=5 release_bound_ms=10"
# Every head runs base's command (perfab-spin reads neither PAB_V nor
# PAB_W): an A/A run, and the null arm guards FAIL. Only the start-up
# reads the variables: ~1 k instructions, 0.1% of this work's count (at
# work=1000 it was 0.5%, the counts' tolerance, and a counted run FAILed).
expect_not_fail "an A/A run does not FAIL" "$PERFAB" run -q --arm "base=$spin" --arm "head=$spin" --null-arm --reps 10 --max-reps 10 \
	--head-env 'PAB_V=4 || PAB_V=16 || PAB_V=32' --head-env 'PAB_W=x' --out v.json
v_rc=$rc
[ "$(jq -c '[.arms[].name]' v.json)" = '["base","head","hd01","hd02","null"]' ] || fail "arms: $(jq -c '[.arms[].name]' v.json)"
[ "$(jq -c '[.arms[].env]' v.json)" = '[{},{"PAB_V":"4","PAB_W":"x"},{"PAB_V":"16","PAB_W":"x"},{"PAB_V":"32","PAB_W":"x"},{}]' ] ||
	fail "variant env: $(jq -c '[.arms[].env]' v.json)"
for arm in base head hd01 hd02 null; do
	for pos in 0 1 2 3 4; do
		n=$(jq --arg a $arm --argjson p $pos '[.rows[0].reps[] | select(.order[$p] == $a)] | length' v.json)
		[ "$n" = 2 ] || fail "arm $arm in position $pos $n times, not 2"
	done
done
for arm in head hd01 hd02; do
	grep -q "command · $arm vs base" "$T/out" || fail "no ledger section for $arm"
done
expect_rc "$v_rc" "$PERFAB" ledger --format json v.json
[ "$(jq -c '[.rows[].arm]' "$T/out")" = '["head","hd01","hd02"]' ] || fail "ledger json rows per variant"
expect_rc 2 "$PERFAB" run -q --arm "base=$spin" --arm "head=$spin" --head-env 'A=1 ||  || A=3'
grep_err "empty variant"
expect_rc 2 "$PERFAB" run -q --arm "base=$spin" --arm "head=$spin" --head-env 'A=1 || A=2' --head-env 'B=1 || B=2 || B=3'
grep_err "must match"
expect_rc 2 "$PERFAB" run -q --arm "base=$spin" --arm "new=$spin" --head-env 'A=1 || A=2'
grep_err "arm called 'head'"
expect_rc 2 "$PERFAB" run -q --arm "base=$spin" --arm "head=$spin" --head-env 'NOEQUALS'
grep_err "not K=V"
exit 0
