#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The sanity gate: a head whose peak RSS is > 1.5x base + 8 MiB at rep 1
# stops the run with exit 5, the artifact is still written and marked,
# and the ledger shows why (also exit 5). --no-sanity-gate measures anyway.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin"
expect_rc 5 "$PERFAB" run -q --reps 6 --max-reps 6 --scale 0.05 --arm "base=$spin" \
	--arm "head=$spin extra_mib=64" --out s.json
grep_err "sanity gate"
jq -e '.stopped_by == "sanity-gate" and .complete == false' s.json >/dev/null || fail "artifact not marked"
jq -e '.sanity[0] | .arm == "head" and .metric == "peak_rss"' s.json >/dev/null || fail "offending cell not listed"
[ "$(jq '.rows[0].reps | length' s.json)" = 1 ] || fail "samples of rep 1 lost"
expect_rc 5 "$PERFAB" ledger s.json
grep_err "peak_rss"
expect_verdict "$PERFAB" run -q --reps 2 --max-reps 2 --scale 0.05 --no-sanity-gate --arm "base=$spin" \
	--arm "head=$spin extra_mib=64" --out s2.json
jq -e '.complete == true and .stopped_by == null' s2.json >/dev/null || fail "--no-sanity-gate"
exit 0
