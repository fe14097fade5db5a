#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# ledger --format markdown fits a PR comment: headline verdict and action,
# one table, the intervals folded in <details>, the disposition last; names
# escaped (no new columns, no mentions, issue links or bare URLs); and
# with $GITHUB_STEP_SUMMARY set, ledger and gate append it there (a
# summary that cannot be written warns, the verdict stands).
. "${top_srcdir}/tests/lib/test-lib.sh"

spin="$WL/perfab-spin drain_ms=10 release_bound_ms=20"
expect_rc 1 "$PERFAB" run -q --null-arm --reps 12 --max-reps 12 --scale 0.05 --no-sanity-gate \
	--arm "base=$spin slowdown_pct=0" --arm "head=$spin slowdown_pct=100" --out slow.json
jq '.rows[0].name = "a|b*c"' slow.json >pipe.json

expect_rc 1 "$PERFAB" ledger --format markdown slow.json
mv "$T/out" pr.md
head -1 pr.md | grep -q '^### perfab: .*FAIL — reject or revise' || fail "headline: $(head -1 pr.md)"
grep -q '^| row | arm | n | verdict | throughput | cpu |' pr.md || fail "no table"
# (n is 12, or 3 where exact counts fixed the FAIL in the first block.)
n=12 m=cpu
! first_block_fail slow.json || n=3 m=instructions
grep -q "^| command | head | $n | .*FAIL |" pr.md || fail "no row line"
grep -q '^<details><summary>' pr.md && grep -q '^</details>$' pr.md || fail "details not folded"
tail -1 pr.md | grep -q '^\*\*Disposition:\*\* reject or revise' || fail "last line: $(tail -1 pr.md)"
# Every table line has the same number of cells as its header.
awk -F'|' '/^\| row /{n=NF} /^\|/ && n && !/^\| metric/ {if (NF != n && !inner) {print; bad=1}} /^<details>/{inner=1} END{exit bad}' pr.md ||
	fail "ragged table"

# A '|' in a row name is escaped, not a new column.
expect_rc 1 "$PERFAB" ledger --format markdown pipe.json
grep -q '^| a\\|b\\\*c | head |' "$T/out" || fail "row name not escaped: $(grep '^| a' "$T/out")"

# Names notify no one and link nowhere: a mention, an e-mail address, an
# issue reference and bare URLs in a row name are broken by a
# zero-width space (an entity), the text otherwise the same.
jq '.rows[0].name = "@octocat fixes #123 see https://evil.example and www.evil.example, mail a@b.example; CPU @ 2GHz"' \
	slow.json >names.json
expect_rc 1 "$PERFAB" ledger --format markdown names.json
for bad in '@octocat' '#123' 'https://' 'www\.' 'a@b'; do
	! grep -q "$bad" "$T/out" || fail "'$bad' reached the Markdown: $(grep "$bad" "$T/out" | head -1)"
done
grep -qF '| @&#8203;octocat fixes #&#8203;123 see https:&#8203;//evil.example and www&#8203;.evil.example, mail a@&#8203;b.example; CPU @ 2GHz | head |' "$T/out" ||
	fail "names not broken as expected: $(grep 'octocat' "$T/out" | head -1)"

# $GITHUB_STEP_SUMMARY: ledger and gate append (never truncate).
echo "earlier step" >summary.md
GITHUB_STEP_SUMMARY=$T/summary.md expect_rc 1 "$PERFAB" gate slow.json
grep_out "^FAIL$"
GITHUB_STEP_SUMMARY=$T/summary.md expect_rc 1 "$PERFAB" ledger slow.json
grep_out "^overall: FAIL"
[ "$(head -1 summary.md)" = "earlier step" ] || fail "the summary was truncated"
[ "$(grep -c '^### perfab: ' summary.md)" = 2 ] || fail "summary: $(cat summary.md)"
GITHUB_STEP_SUMMARY=/nonexistent/dir/summary.md expect_rc 1 "$PERFAB" gate slow.json
grep_err "cannot append to \$GITHUB_STEP_SUMMARY"
GITHUB_STEP_SUMMARY= expect_rc 1 "$PERFAB" gate slow.json
! grep -q "GITHUB_STEP_SUMMARY" "$T/err" || fail "an empty GITHUB_STEP_SUMMARY is not 'unset': $(cat "$T/err")"
# The gate's log says what failed, cell by cell, with its reason (folded
# under itself, 4 columns in, to 100 columns: joined again here).
awk '/^    / { sub(/^ +/, " "); line = line $0; next } NR > 1 { print line } { line = $0 }
	END { print line }' "$T/err" | grep -q "^  command · head: $m FAIL .*beyond the tolerance" ||
	fail "the gate does not say which cell failed and why: $(cat "$T/err")"
exit 0
