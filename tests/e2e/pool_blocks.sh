#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Two half runs of a large injected effect (head does twice the work),
# pooled, give the same verdict as one full run; n adds up; the pooled
# artifact is complete and balanced, its blocks continue, its seeds are
# recorded; `ledger`/`gate` given both halves pool them the same way; the
# same run given twice (or a pool with its own source) is refused.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin drain_ms=10 release_bound_ms=20"
# 12 reps per half: at n = 6 the 95% sign-test interval is [min, max], so one
# preempted base or null rep on a busy runner sets the noise floor past the
# 2x slowdown; at n = 12 it takes three.
# Counts off: exact counts fix the FAIL in the first block and stop each
# run there; the reps are what must add up here.
common="--counts off --null-arm --reps 12 --max-reps 12 --scale 0.05 -q --no-sanity-gate"
expect_rc 1 "$PERFAB" run $common --arm "base=$spin slowdown_pct=0" \
	--arm "head=$spin slowdown_pct=100" --out half1.json
expect_rc 1 "$PERFAB" run $common --arm "base=$spin slowdown_pct=0" \
	--arm "head=$spin slowdown_pct=100" --out half2.json
expect_rc 1 "$PERFAB" run --counts off --null-arm --reps 24 --max-reps 24 --scale 0.05 -q --no-sanity-gate \
	--arm "base=$spin slowdown_pct=0" --arm "head=$spin slowdown_pct=100" --out full.json

expect_rc 0 "$PERFAB" pool half1.json half2.json -o pooled.json
grep_err "pooled 2 artifacts (blocks): 1 rows, 24 reps"
jq -e '.complete == true and .run.pool.mode == "blocks" and .run.pool.artifacts == 2' pooled.json >/dev/null ||
	fail "pooled artifact: not complete, or pool not recorded"
s1=$(jq .seed half1.json)
s2=$(jq .seed half2.json)
jq -e --argjson a "$s1" --argjson b "$s2" '.run.pool.seeds == [$a, $b] and .seed == $a' pooled.json >/dev/null ||
	fail "seeds not recorded in input order"
# Reps concatenated, block numbers continued: 0 0 0 1 1 1 | 2 2 2 3 3 3.
jq -e '[.rows[0].reps[].block] == [range(0; 8) | ., ., .]' pooled.json >/dev/null ||
	fail "block numbers not continued: $(jq -c '[.rows[0].reps[].block]' pooled.json)"
jq -e --slurpfile h1 half1.json --slurpfile h2 half2.json \
	'.rows[0].reps == ($h1[0].rows[0].reps + ($h2[0].rows[0].reps | map(.block += 4)))' \
	pooled.json >/dev/null || fail "pooled reps are not half1's then half2's"

# Same verdict as one full run, n adds up.
for f in full.json pooled.json; do
	expect_rc 1 "$PERFAB" ledger --format json "$f"
	jq -e '.overall == "FAIL" and .rows[0].n == 24 and
	       (.rows[0].cells[] | select(.metric == "cpu") | .verdict == "FAIL" and .change.n == 24)' \
		"$T/out" >/dev/null || fail "$f: not FAIL on cpu with n = 24"
	cp "$T/out" "$f.ledger"
done
for f in half1.json half2.json; do
	expect_rc 1 "$PERFAB" ledger --format json "$f"
	jq -e '.rows[0].n == 12' "$T/out" >/dev/null || fail "$f: n is not 12"
done
expect_rc 1 "$PERFAB" gate pooled.json
expect_rc 1 "$PERFAB" gate full.json

# ledger and gate with both halves pool in memory: the same ledger.
expect_rc 1 "$PERFAB" ledger --format json half1.json half2.json
cmp -s "$T/out" pooled.json.ledger || fail "ledger of both halves differs from ledger of the pool"
expect_rc 1 "$PERFAB" gate half1.json half2.json
grep_out "^FAIL$"
expect_rc 1 "$PERFAB" ledger half1.json half2.json
grep_out "pooled from 2 artifacts (blocks)"
grep_out "n=24"

# Pooling a pool with another half records every seed once per input run.
expect_rc 1 "$PERFAB" run $common --arm "base=$spin slowdown_pct=0" \
	--arm "head=$spin slowdown_pct=100" --out half3.json
expect_rc 0 "$PERFAB" pool pooled.json half3.json -o again.json
jq -e '(.run.pool.seeds | length) == 3 and (.rows[0].reps | length) == 36' again.json >/dev/null ||
	fail "pool of a pool: seeds or reps wrong"
# ... but a pool with one of its own sources would count that run twice.
for cmd in "pool pooled.json half1.json -o twice.json" "ledger pooled.json half1.json" \
	"ledger half2.json half2.json"; do
	# shellcheck disable=SC2086 # a command line
	expect_rc 4 "$PERFAB" $cmd
	grep_err "hold the same run (journal id"
done
[ ! -e twice.json ] || fail "a pool of a run with itself was written"

# Usage: -o is required and may not overwrite an input.
expect_rc 2 "$PERFAB" pool half1.json half2.json
grep_err "-o OUT is required"
expect_rc 2 "$PERFAB" pool half1.json half2.json -o half1.json
grep_err "also an input"
expect_rc 2 "$PERFAB" pool half1.json /no/such.json -o x.json
grep_err "cannot read"
expect_rc 0 "$PERFAB" pool --help
grep_out "usage: perfab pool FILE... -o OUT"
exit 0
