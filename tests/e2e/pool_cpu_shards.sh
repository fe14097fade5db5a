#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Shards measured on different CPU models (a mixed fleet of CI runners)
# pool: each row keeps its own base, head and null arm from one machine,
# records the host it ran on, and the ledger names each row's CPU model.
# Blocks of one row from different CPU models are still refused, also
# when the second model is hidden in a pooled artifact's row. The host
# fingerprint comes from the documented test hook PERFAB_TEST_CPU_MODEL.
# Every shard PASSes (shard_run: exact counts), so every pooled ledger and
# gate of them must too.
. "${top_srcdir}/tests/lib/test-lib.sh"

PERFAB_TEST_CPU_MODEL="Test CPU Alpha" shard_run --shard 1/2 --out s1.json
PERFAB_TEST_CPU_MODEL="Test CPU Beta" shard_run --shard 2/2 --out s2.json
jq -e '.host.cpu_model == "Test CPU Alpha"' s1.json >/dev/null || fail "the hook did not set host.cpu_model"
jq -e '.host.cpu_model == "Test CPU Beta"' s2.json >/dev/null || fail "the hook did not set host.cpu_model"
jq -e '[.rows[] | has("host")] == [false, false]' s1.json >/dev/null ||
	fail "an unpooled run's rows record a host of their own"

# Disjoint rows from two CPU models pool; the rows of the second shard
# record the host they ran on, the first shard's are the artifact's.
expect_rc 0 "$PERFAB" pool s1.json s2.json -o union.json
jq -e '.host.cpu_model == "Test CPU Alpha" and [.rows[].name] == ["r1", "r2", "r3"] and
       .rows[0].host == null and .rows[2].host == null and
       .rows[1].host.cpu_model == "Test CPU Beta"' union.json >/dev/null ||
	fail "row hosts of the union: $(jq -c '[.rows[] | [.name, .host.cpu_model]]' union.json)"

# The ledger shows each row's CPU model, in every format that has rows.
expect_rc 0 "$PERFAB" ledger union.json
grep_out "measured on: Test CPU Alpha"
grep_out "measured on: Test CPU Beta"
expect_rc 0 "$PERFAB" ledger --format json union.json
jq -e '[.rows[] | .cpu_model] == ["Test CPU Alpha", "Test CPU Beta", "Test CPU Alpha"]' "$T/out" >/dev/null ||
	fail "ledger json cpu_model: $(jq -c '[.rows[].cpu_model]' "$T/out")"
expect_rc 0 "$PERFAB" ledger --format markdown union.json
grep_out "| CPU model |"
grep_out "Test CPU Beta |"
expect_rc 0 "$PERFAB" ledger --format html union.json
# The overview's heading cell of each row names the row's CPU model.
grep_out 'class="rowhead">.*r1.*Test CPU Alpha'
grep_out 'class="rowhead">.*r2.*Test CPU Beta'

# ... and only when the rows differ.
expect_rc 0 "$PERFAB" ledger s1.json
if grep -q "measured on:" "$T/out"; then fail "one CPU model, yet the ledger names it per row"; fi
expect_rc 0 "$PERFAB" ledger --format markdown s1.json
if grep -q "CPU model" "$T/out"; then fail "one CPU model, yet a CPU model column"; fi
# ledger and gate of the shards pool the same way.
expect_rc 0 "$PERFAB" gate s1.json s2.json

# The pooled artifact survives a round trip: pooling it again keeps the hosts.
expect_rc 0 "$PERFAB" pool union.json -o again.json
jq -e '.rows[1].host.cpu_model == "Test CPU Beta" and .rows[0].host == null' again.json >/dev/null ||
	fail "a re-pooled artifact lost its row hosts"

# Blocks of one row across CPU models: refused.
PERFAB_TEST_CPU_MODEL="Test CPU Beta" shard_run --shard 1/2 --out s1beta.json
expect_rc 4 "$PERFAB" pool s1.json s1beta.json -o refused.json
grep_err "CPU model differs"
grep_err "Test CPU Beta"
[ ! -e refused.json ] || fail "a refused pool wrote its output"
# ... also when the other model is a row's own host in a pooled input:
# row r2 of union.json ran on Beta, an unsharded attempt all on Alpha.
PERFAB_TEST_CPU_MODEL="Test CPU Alpha" shard_run --out allalpha.json
expect_rc 4 "$PERFAB" pool union.json allalpha.json -o refused.json
grep_err "row 'r2' ran on \"Test CPU Beta\""
# A second attempt on the same models per row adds blocks as before.
PERFAB_TEST_CPU_MODEL="Test CPU Alpha" shard_run --shard 1/2 --out s1alpha.json
PERFAB_TEST_CPU_MODEL="Test CPU Beta" shard_run --shard 2/2 --out s2beta.json
expect_rc 0 "$PERFAB" pool s1alpha.json s2beta.json -o union2.json
expect_rc 0 "$PERFAB" pool union.json union2.json -o all.json
jq -e '[.rows[].reps | length] == [6, 6, 6] and .rows[1].host.cpu_model == "Test CPU Beta"' all.json >/dev/null ||
	fail "blocks of two mixed unions: $(jq -c '[.rows[] | [.name, (.reps|length), .host.cpu_model]]' all.json)"
exit 0
