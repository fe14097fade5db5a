#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# How the commands refuse to pool: `perfab pool`, and `ledger`/`gate` of
# several files, exit 4 with the reason, pool writes nothing and ledger
# prints no verdict. The rules themselves (which difference is refused, in
# which words) are tests/unit/test_pool.c's table; here are the refusals
# the commands word themselves: a foreign or missing protocol, an arm
# order the artifact reader refuses (named with its file), an incomplete
# input in ledger and gate, and a real run the sanity gate stopped, which
# ledger and gate report with the gate's own exit code, as for one file.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
expect_pools a.json b.json

# One of pool.h's refusals, through all three commands.
jq '.host.cpu_model = "Imaginary CPU 9000"' b.json >cpu.json
expect_refused "CPU model differs" a.json cpu.json
grep_err "Imaginary CPU 9000"

# Another (or no) arm-order protocol: exit 4, not "bad input", since the
# data is fine, just not the same experiment. Alone, an unknown protocol
# is unreadable input.
jq '.protocol = "forward-backward/0"' b.json >proto.json
expect_refused "protocol differs" a.json proto.json
grep_err "forward-backward/0"
jq 'del(.protocol)' b.json >noproto.json
expect_refused "protocol differs: 'noproto.json' records (none)" a.json noproto.json
expect_rc 2 "$PERFAB" ledger proto.json

# An arm order that is not the rotation's: refused on reading, by name.
jq '.rows[0].reps[1].order = .rows[0].reps[0].order' b.json >skew.json
expect_rc 4 "$PERFAB" pool a.json skew.json -o pooled.json
grep_err "'skew.json': row 'command' rep 2: the arm order is not the rotate-reverse/1 order"

# An incomplete artifact (an interrupted run), in either place.
jq '.complete = false' b.json >inc.json
expect_rc 4 "$PERFAB" pool a.json inc.json -o pooled.json
grep_err "'inc.json' is incomplete"
[ ! -e pooled.json ] || fail "a refused pool wrote pooled.json"
expect_rc 4 "$PERFAB" ledger a.json inc.json
grep_err "'inc.json' is incomplete"
expect_rc 4 "$PERFAB" gate inc.json a.json
grep_err "'inc.json' is incomplete"

# A run the sanity gate stopped (its head holds 64 MiB more).
expect_rc 1 "$PERFAB" run -q --null-arm --reps 3 --max-reps 3 --arm "base=$SPIN_CMD" \
	--arm "head=$SPIN_CMD extra_mib=64" --out blown.json
jq -e '.stopped_by == "sanity-gate"' blown.json >/dev/null || fail "the sanity gate did not stop the run"
expect_rc 4 "$PERFAB" pool a.json blown.json -o pooled.json
grep_err "'blown.json' was stopped by the sanity gate"
[ ! -e pooled.json ] || fail "a refused pool wrote pooled.json"
# Even marked complete, a gated artifact is not poolable.
jq '.complete = true' blown.json >blown2.json
expect_rc 4 "$PERFAB" pool a.json blown2.json -o pooled.json
grep_err "stopped by the sanity gate"
expect_rc 5 "$PERFAB" ledger a.json blown.json
grep_err "stopped by the sanity gate"
expect_rc 5 "$PERFAB" gate blown.json a.json
exit 0
