#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perfab history html: one self-contained page (no script, nothing
# external, hostile row names escaped: no markup, no raw U+202E, ESC or
# BEL) with a legend of its marks, an index of its charts and a chart per
# row, arm and metric — the chained level, its band, the tolerance either
# way, a point per merge coloured by verdict with a hover title (its
# change as the ledger reads it), a change point and a step of the level
# marked, signed y ticks with zero and "+ = worse", the commits on the x
# axis — that renders in headless Chromium at 1400, 1024, 1920 and 390 px
# without clipping. The harness is checked against pages that must fail
# it. Skips (77) the browser part when chromium is not installed.
. "${top_srcdir}/tests/lib/test-lib.sh"
require python3

D=$top_srcdir/tests/data/ledger
db=h.db
for f in p2-pass p2-inconclusive-spin tolerance-margin p1-nonull hostile-rows; do
	expect_rc 0 "$PERFAB" history record --db "$db" "$D/$f.json" --commit "c-$f" --branch main
done
# A series of 40 merges of row 'step' (figures as a record would write
# them; the artifacts above are real): from merge 20 on every merge adds
# about +1% (a change of the per-merge changes), and merge 30 alone +5%
# (a FAIL: a step of the level).
python3 - "$db" <<'PY' || hard_error "cannot add the step series"
import random, sqlite3, sys
c = sqlite3.connect(sys.argv[1])
rnd = random.Random(4)
for i in range(40):
    ch = (1.0 if i >= 20 else 0.0) + (5.0 if i == 30 else 0.0) + rnd.gauss(0, 0.3)
    cur = c.execute("insert into merges (artifact_sha256, commit_sha, branch, recorded_at)"
                    " values (?, ?, 'main', 0)", ("s%d" % i, "step%02d" % i))
    c.execute("insert into cells values (?, 'step', 'head', 'cpu', 1, 1, ?, ?, ?, 2, ?, 12, 0.961)",
              (cur.lastrowid, ch, ch - 0.8, ch + 0.8, "FAIL" if i == 30 else "PASS"))
c.commit()
PY
expect_rc 0 "$PERFAB" history drift --db "$db" --row step
grep_out "change points in the per-merge changes: #[0-9]* step20 (p = 0.00[0-9])$"
grep_out "steps of the level (a merge's own interval beyond its tolerance): #[0-9]* step30 +[0-9.]*%$"
grep_out "the commit of a step: perfab bisect --good step30^ --bad step30 --build CMD --bench CMD$"
expect_rc 0 "$PERFAB" history html --db "$db" -o page.html
[ -s page.html ] || fail "no page written"
grep -q '<svg class="history"' page.html || fail "no plot in the page"
grep -q '<line class="cp"' page.html || fail "the change point is not marked"
grep -q '<circle class="step"' page.html || fail "the step of the level is not marked"
grep -q '<circle class="merge fail"' page.html || fail "no FAIL point"
grep -q '<title>merge #[0-9]* c-p1-nonull: 1.29× slower \[1.25, 1.40\] FAIL, n = 6' page.html ||
	fail "no hover title with the commit and its change as the ledger reads it"
# Names from the database reach the page inert: hostile-rows.json's row
# names hold U+202E, ESC and BEL, which leave as visible escapes.
if LC_ALL=C grep -q "$(printf '\342\200\256')" page.html; then fail "a raw U+202E on the trend page"; fi
if LC_ALL=C grep -q "$(printf '[\033\007]')" page.html; then fail "a raw ESC or BEL on the trend page"; fi
grep -q 'md | pipe .*\\xe2\\x80\\xaeabc' page.html || fail "U+202E not shown as its escape"
if grep -q '<script' page.html || grep -q '<img' page.html; then
	fail "markup from a row name reached the page unescaped"
fi
grep -q '&lt;img src=x onerror=alert(1)&gt;' page.html || fail "a hostile row name is not escaped"
if grep -Eo '(src|href)="[^"#][^"]*"' page.html | grep -q .; then fail "an external reference"; fi
plots=$(grep -c '<svg class="history"' page.html)

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] || skip "chromium is not installed (Debian: apt-get install chromium)"
render() { python3 "${top_srcdir}/tests/e2e/history_chromium.py" "$CHROMIUM" "$@"; }
render page.html "$plots" >probe.json 2>probe.err
rc=$?
[ "$rc" = 77 ] && { cat probe.err >&2; exit 77; }
[ "$rc" = 0 ] || fail "the page did not render cleanly: $(cat probe.json probe.err)"
jq -e --argjson n "$plots" '.plots == $n and .change_points >= 1 and .verdict_fills >= 3' probe.json \
	>/dev/null || fail "probe: $(cat probe.json)"
# At a laptop's, a desktop's and a phone's width: a legend of every mark,
# an index of every chart, and per chart a tolerance line, signed y ticks
# with zero, "+ = worse", the commits on the x axis (the last merge's
# always: step39 ends the step series), no point cut, nothing clipped.
for w in 1024 1920 390; do
	render page.html "$plots" "$w" >probe$w.json 2>&1 || fail "at $w px: $(cat probe$w.json)"
	jq -e --argjson w "$w" --argjson n "$plots" '.width == $w and .n_clipped == 0 and
		.n_missing == 0 and (.legend_marks | length) == 6 and .indexed == $n and
		.tolerance_lines == 2 * $n and (.commit_labels | index("step39")) != null and
		.text_px >= 9' probe$w.json >/dev/null || fail "$w px: $(cat probe$w.json)"
done
# The harness fails what it must: a page wider than a phone, a chart
# without its tolerance line, its commits or its legend.
sed 's#</body>#<p style="width:900px">wide</p></body>#' page.html >bad-wide.html
render bad-wide.html "$plots" 390 >/dev/null 2>&1 && fail "a clipped paragraph passed the 390 px check"
sed 's#<line class="tol worse"#<line class="x"#' page.html >bad-tol.html
render bad-tol.html "$plots" 1024 >/dev/null 2>&1 && fail "a chart without a tolerance line passed"
sed 's#class="tick commit"#class="tick"#g' page.html >bad-commits.html
render bad-commits.html "$plots" 1024 >/dev/null 2>&1 && fail "a chart without commits passed"
sed 's#<div id="legend">#<div>#' page.html >bad-legend.html
render bad-legend.html "$plots" 1024 >/dev/null 2>&1 && fail "a page without its legend passed"
render page.html $((plots + 1)) >/dev/null 2>&1 && fail "the plot count is not checked"
exit 0
