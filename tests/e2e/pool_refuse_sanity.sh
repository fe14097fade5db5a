#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses an artifact the sanity gate stopped (a real run whose head
# holds 64 MiB more); ledger/gate of several files still report the gate
# with its own exit code, as they do for one file.
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
expect_rc 5 "$PERFAB" run -q --null-arm --reps 3 --max-reps 3 --arm "base=$SPIN_CMD" \
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
