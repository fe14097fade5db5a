#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# history_drift_summary.sh — perfab history drift of a real project's
# database (five merges, five rows, every judged metric) starts with a
# summary: a line of counts, then one line per row, arm and metric with its
# word, DRIFT first, then GAIN, then none, each word the one the JSON's
# "drift" gives (worse, better, none), before the blocks; --metric takes a
# LIST and repeats, in drift, show and html; an unknown name is a usage
# error. Every line fits 100 columns.
. "${top_srcdir}/tests/lib/test-lib.sh"

D=$top_srcdir/tests/data
n=0
for a in ledger/p2-pass.json ledger/p2-inconclusive-spin.json ledger/tolerance-margin.json \
	demo-run.json ledger/p1-nonull.json; do
	n=$((n + 1))
	expect_rc 0 "$PERFAB" history record --db h.db "$D/$a" --commit "c$n" --branch main
done

# The JSON's series, as the summary must list them: "WORD metric of 'row' [arm]",
# DRIFT first, then GAIN, then none, in series order within each.
expect_rc 0 "$PERFAB" history drift --db h.db --format json
jq -r '[.series[] | {w: (if .drift == "worse" then "DRIFT" elif .drift == "better" then "GAIN"
	else "none" end), name: "\(.metric) of '"'"'\(.row)'"'"' [\(.arm)]"}] |
	(map(select(.w == "DRIFT")) + map(select(.w == "GAIN")) + map(select(.w == "none")))[] |
	"\(.w) \(.name)"' "$T/out" >want
series=$(wc -l <want)
[ "$series" -ge 20 ] || fail "the database holds only $series series"
drift=$(grep -c '^DRIFT' want)
gain=$(grep -c '^GAIN' want)
none=$(grep -c '^none' want)
[ "$drift" -ge 1 ] && [ "$gain" -ge 1 ] && [ "$none" -ge 1 ] ||
	fail "not every word is in the database: $drift DRIFT, $gain GAIN, $none none"

expect_rc 0 "$PERFAB" history drift --db h.db
head -1 "$T/out" >first
[ "$(cat first)" = "drift of $series series over 5 merges: $drift DRIFT (worse), $gain GAIN (better), $none none" ] ||
	fail "the summary's first line: $(cat first)"
# The summary lines: word, change and interval, name; then one blank line.
sed -n "2,$((series + 1))p" "$T/out" >lines
sed -n "$((series + 2))p" "$T/out" | grep -q '^$' || fail "no blank line after the summary: $(cat "$T/out")"
grep -Evq '^  (DRIFT |GAIN  |none  ) [+-][0-9.]+% \[[+-][0-9.]+, [+-][0-9.]+\] +[a-z_]+ of .* \[[a-z]+\]$' lines &&
	fail "a summary line out of shape: $(grep -Ev '^  (DRIFT |GAIN  |none  ) [+-]' lines)"
sed -E 's/^  ([A-Za-z]+) +[^]]*\] +/\1 /' lines >got
diff want got >&2 || fail "the summary is not the series with the JSON's words, DRIFT first"
# The blocks follow, as before: the first one after the blank line.
sed -n "$((series + 3))p" "$T/out" | grep -Eq "^[a-z_]+ of '.*' \[[a-z]+\] is [+-]" ||
	fail "no block after the summary"
awk 'length > 100 { exit 1 }' "$T/out" || fail "drift text wider than 100 columns"
pass "the summary: $series series, $drift DRIFT, $gain GAIN, $none none"

# --metric LIST, repeatable: only those metrics, here as in the JSON.
expect_rc 0 "$PERFAB" history drift --db h.db --metric cpu,peak_rss --format json
jq -e '[.series[].metric] | unique == ["cpu", "peak_rss"]' "$T/out" >/dev/null ||
	fail "--metric cpu,peak_rss: $(jq -c '[.series[].metric] | unique' "$T/out")"
cp "$T/out" list.json
expect_rc 0 "$PERFAB" history drift --db h.db --metric peak_rss --metric cpu --format json
cmp -s "$T/out" list.json || fail "--metric peak_rss --metric cpu differs from --metric cpu,peak_rss"
expect_rc 0 "$PERFAB" history drift --db h.db --metric cpu,peak_rss
m=$(jq '.series | length' list.json)
head -1 "$T/out" | grep -q "^drift of $m series over 5 merges" || fail "--metric summary: $(head -1 "$T/out")"
sed -n "2,$((m + 1))p" "$T/out" | grep -Evq ' (cpu|peak_rss) of ' && fail "--metric let another metric in"
expect_rc 0 "$PERFAB" history show --db h.db --metric cpu,wall --format json
jq -e '[.cells[].metric] | unique == ["cpu", "wall"]' "$T/out" >/dev/null ||
	fail "show --metric cpu,wall: $(cat "$T/out")"
expect_rc 0 "$PERFAB" history html --db h.db --metric wall --metric cpu -o page.html
grep -q "peak_rss" page.html && fail "html --metric wall --metric cpu drew peak_rss"
expect_rc 2 "$PERFAB" history drift --db h.db --metric cpu,nope
grep_err "unknown metric 'nope'"
pass "--metric LIST and repeated"
exit 0
