#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# pool refuses artifacts whose metric sets differ: a metric measured in
# one and never in the other (a runner without that probe).
. "${top_srcdir}/tests/lib/test-lib.sh"

fast_run a.json
fast_run b.json
jq -e '[.rows[0].reps[].results[].tree_peak_rss | numbers] | length > 0' b.json >/dev/null ||
	fail "tree_peak_rss is not measured here: pick another probe for this test"
jq '.rows[].reps[].results[].tree_peak_rss = null' b.json >nometric.json
expect_refused "metric set differs: row 'command' measured tree_peak_rss in 'a.json' and never in 'nometric.json'" \
	a.json nometric.json
# Either order names the artifact that has it.
expect_refused "measured tree_peak_rss in 'a.json' and never in 'nometric.json'" nometric.json a.json
exit 0
