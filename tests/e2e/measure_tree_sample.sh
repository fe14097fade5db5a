#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The tree sampler cannot make a metric vanish at random. A child shorter
# than the sampler thread's wake-up (a busy CPU under the sampler, as on a
# loaded CI runner) used to leave tree_peak_rss/pss null for that rep; when
# that hit every rep of a run, pooling it with a run that had sampled was
# refused as "metric set differs". The exit-stop sample closes the gap:
# with the thread kept from ever sampling (PERFAB_TEST_SAMPLER_IDLE), every
# rep and arm still has both figures, and two such runs pool.
. "${top_srcdir}/tests/lib/test-lib.sh"

aa() {
	PERFAB_TEST_SAMPLER_IDLE=1 expect_rc 3 "$PERFAB" run -q --arm base=/bin/true \
		--arm head=/bin/true --null-arm --reps 3 --max-reps 3 --out "$1"
}
aa a1.json
aa a2.json
for f in a1.json a2.json; do
	jq -e '[.rows[0].reps[].results[] | .tree_peak_rss > 0 and .tree_peak_pss > 0] | all' "$f" >/dev/null ||
		fail "$f: a rep has no tree figures although the child was held at its exit stop: $(jq -c '[.rows[0].reps[].null_reasons[].tree_peak_rss]' "$f")"
	# The exit-stop sample is counted as the sampler's work.
	jq -e '.run.sampler_samples >= 9' "$f" >/dev/null ||
		fail "$f: sampler_samples $(jq .run.sampler_samples "$f"), expected one per child (9)"
done
"$PERFAB" pool a1.json a2.json -o pooled.json 2>"$T/pool.err" ||
	fail "two A/A runs of one experiment must pool: $(cat "$T/pool.err")"
echo "tree figures present in every rep with an idle sampler; runs pool"
