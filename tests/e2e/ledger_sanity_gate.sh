#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The sanity gate: a head whose peak RSS is > 1.5x base + 8 MiB at rep 1
# stops the run and FAILs that row at once (exit 1) with the gate's
# figures in words; the artifact is complete and marked, and `ledger`
# and `gate` judge it the same way. --no-sanity-gate measures anyway.
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin"
expect_rc 1 "$PERFAB" run -q --reps 6 --max-reps 6 --scale 0.05 --arm "base=$spin" \
	--arm "head=$spin extra_mib=64" --out s.json
grep_err "sanity gate"
grep_out "the sanity gate stopped the run:"
grep_out "peak RSS .* MiB > 1.5 x .* MiB + 8 MiB at rep 1"
grep_out "overall: FAIL"
jq -e '.stopped_by == "sanity-gate" and .complete == true and .run.stop_reason == "sanity-gate"' \
	s.json >/dev/null || fail "artifact not marked"
jq -e '.sanity[0] | .arm == "head" and .metric == "peak_rss"' s.json >/dev/null || fail "offending cell not listed"
[ "$(jq '.rows[0].reps | length' s.json)" = 1 ] || fail "samples of rep 1 lost"
expect_rc 1 "$PERFAB" ledger s.json
grep_out "FAIL"
grep_out "no-sanity-gate"
expect_rc 1 "$PERFAB" ledger --format json s.json
jq -e '.overall == "FAIL" and .rows[0].verdict == "FAIL" and (.rows[0].sanity_gate | test("peak RSS"))' \
	out >/dev/null || fail "the JSON ledger does not FAIL the gated row with its figures"
jq -e '.rows[0].cells[] | select(.metric == "cpu") | .base_median > 0' out >/dev/null ||
	fail "the gated row's n = 1 medians are missing"
expect_rc 1 "$PERFAB" ledger --format markdown s.json
grep_out "sanity gate"
expect_rc 1 "$PERFAB" gate s.json
# A head meant to use more memory: measured and judged on its cells.
"$PERFAB" run -q --reps 3 --max-reps 3 --scale 0.05 --no-sanity-gate --arm "base=$spin" \
	--arm "head=$spin extra_mib=64" --out s2.json >/dev/null 2>&1
rc=$?
[ "$rc" = 1 ] || [ "$rc" = 3 ] || fail "--no-sanity-gate: exit $rc, not a verdict"
jq -e '.complete == true and .stopped_by == null' s2.json >/dev/null || fail "--no-sanity-gate"
exit 0
