#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# peak_rss is the child's OWN high-water mark: a child touching 100 MiB
# reports ~100 MiB over its baseline even when perfab itself holds 500 MiB
# (ru_maxrss would carry perfab's peak across fork+exec).
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin"
[ -x "$spin" ] || fail "no $spin"
# base touches nothing extra, head touches 100 MiB during the work. (Counts
# off: so short a run's counts vary by up to 0.1% from run to run, so
# whether they decide is chance; this checks peak_rss.)
PERFAB_TEST_BALLAST_MIB=500 expect_rc 3 "$PERFAB" run -q --counts off --reps 2 --max-reps 2 --no-sanity-gate \
	--arm "base=$spin work=1000 extra_mib=0" \
	--arm "head=$spin work=1000 extra_mib=100" --out p.json
b=$(jq '[.rows[0].reps[].results.base.peak_rss] | min' p.json)
h=$(jq '[.rows[0].reps[].results.head.peak_rss] | max' p.json)
echo "base peak $b, head peak $h"
awk -v b="$b" -v h="$h" 'BEGIN {
	want = b + 100 * 1048576
	if (b > 200 * 1048576) { print "base peak inherited perfab ballast: " b; exit 1 }
	if (h < 0.9 * want || h > 1.1 * want) { print "head peak " h " not within 10% of " want; exit 1 }
}' || fail "peak_rss is not the child's own"
# The tree sampler saw the 100 MiB too (sampled, so only a lower bound).
jq -e '[.rows[0].reps[].results.head.tree_peak_rss] | max > 50 * 1048576' p.json >/dev/null ||
	fail "tree_peak_rss missed the child's memory"
exit 0
