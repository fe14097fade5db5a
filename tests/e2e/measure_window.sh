#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The measuring window measures the child, not perfab: what perfab does
# while it holds a child at its exit stop (reading VmHWM, the exit-stop
# tree sample) is left out of the child's wall time. A hook makes perfab
# dawdle 700 ms there; /bin/true's recorded wall must stay far below it,
# while its peak RSS is still read at the stop.
. "${top_srcdir}/tests/lib/test-lib.sh"

PERFAB_TEST_EXIT_HOLD_MS=700 expect_rc 3 "$PERFAB" run -q --arm base=/bin/true \
	--arm head=/bin/true --reps 2 --max-reps 2 --no-null-arm --out w.json
jq -e '[.rows[0].reps[].results[]] | length == 4' w.json >/dev/null || fail "not 4 runs"
jq -e '[.rows[0].reps[].results[].wall] | all(. < 0.7)' w.json >/dev/null ||
	fail "perfab's 700 ms at the exit stop were billed to the child: $(jq -c '[.rows[0].reps[].results[].wall]' w.json)"
jq -e '[.rows[0].reps[].results[].peak_rss] | all(. > 0)' w.json >/dev/null ||
	fail "peak_rss not read at the exit stop"
jq -e '[.rows[0].reps[].results[].tree_peak_rss] | all(. > 0)' w.json >/dev/null ||
	fail "tree_peak_rss not sampled at the exit stop"
exit 0
