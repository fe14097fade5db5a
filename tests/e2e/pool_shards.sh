#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Shards (perfab run --shard I/N: disjoint rows of one experiment) merge as
# a union of rows, back in the unsharded order; shards of two attempts
# merge as blocks and shards at once; ledger/gate of the shards judge the
# union. The shards' verdict is known (shard_run: exact counts of the same
# command, PASS), and so is the union's: PASS, every row exact.
. "${top_srcdir}/tests/lib/test-lib.sh"

shard_run --shard 1/2 --out s1.json
shard_run --shard 2/2 --out s2.json
jq -e '[.rows[].name] == ["r1", "r3"] and .run.shard == "1/2"' s1.json >/dev/null || fail "shard 1/2 rows"
jq -e '[.rows[].name] == ["r2"]' s2.json >/dev/null || fail "shard 2/2 rows"

# Given in either order, the union comes back in the unsharded row order.
expect_rc 0 "$PERFAB" pool s2.json s1.json -o union.json
grep_err "(shards): 3 rows, 9 reps"
jq -e '[.rows[].name] == ["r1", "r2", "r3"] and .run.pool.mode == "shards" and
       .run.shard == null and .complete == true and
       ([.rows[].reps | length] == [3, 3, 3])' union.json >/dev/null ||
	fail "shard union: $(jq -c '[.rows[].name], .run.pool.mode' union.json)"
jq -e --slurpfile a s1.json '.rows[2].reps == $a[0].rows[1].reps' union.json >/dev/null ||
	fail "row r3's reps are not shard 1's"
expect_rc 0 "$PERFAB" ledger --format json union.json
cp "$T/out" union.ledger
jq -e '[.rows[].row] == ["r1", "r2", "r3"]' union.ledger >/dev/null || fail "ledger rows of the union"
expect_exact_pass union.ledger
# The ledger of the shards pools them in memory: the same verdicts, the
# same counted cells, as the written union.
expect_rc 0 "$PERFAB" ledger --format json s1.json s2.json
jq -e '[.rows[].row] == ["r1", "r2", "r3"]' "$T/out" >/dev/null || fail "ledger of the shards"
expect_exact_pass "$T/out"
expect_rc 0 "$PERFAB" gate s1.json s2.json

# A second attempt of both shards: blocks and shards at once, n adds up.
shard_run --shard 1/2 --out s1b.json
shard_run --shard 2/2 --out s2b.json
expect_rc 0 "$PERFAB" pool s1.json s2.json s1b.json s2b.json -o all.json
jq -e '[.rows[].name] == ["r1", "r2", "r3"] and .run.pool.mode == "blocks+shards" and
       ([.rows[].reps | length] == [6, 6, 6]) and (.run.pool.seeds | length) == 4' all.json >/dev/null ||
	fail "blocks+shards: $(jq -c '[.rows[].reps | length], .run.pool' all.json)"
expect_rc 0 "$PERFAB" ledger --format json all.json
jq -e '[.rows[].n] == [6, 6, 6]' "$T/out" >/dev/null || fail "n of blocks+shards"
expect_exact_pass "$T/out"
exit 0
