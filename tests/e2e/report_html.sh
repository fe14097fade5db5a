#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The HTML report renders in headless Chromium (Debian package `chromium`):
# a forest plot per row × head arm and a trace per row × metric are
# present and drawn, with noise and allowance bands, no console errors, no
# script, nothing external — also when row, arm and revision names are
# hostile markup; every FAIL cell of the Overview in view without
# scrolling sideways at 1024, 1920 and 390 px, the forest plots' text
# legible and every arm's command named. The harness itself is checked
# against pages that must fail it. Skips (77) when chromium is not
# installed.
. "${top_srcdir}/tests/lib/test-lib.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ]; then
	skip "chromium is not installed (Debian: apt-get install chromium)"
fi
require python3
render() {
	python3 "${top_srcdir}/tests/e2e/report_chromium.py" "$CHROMIUM" "$@"
}

spin="$WL/perfab-spin work=1000 drain_ms=10 release_bound_ms=20"
cat >cfg.json <<JSON
{"rows": [{"name": "r1", "argv": ["extra_mib=0"]}, {"name": "r2", "argv": ["extra_mib=1"]}]}
JSON
# head is 2x slower: it FAILs (cand, unchanged, is not the point).
expect_rc 1 "$PERFAB" run -q --config cfg.json --null-arm --reps 8 --max-reps 8 --no-sanity-gate \
	--metrics throughput,cpu,minor_faults,peak_rss,drain_rss,p99 \
	--arm "base=$spin" --arm "head=$spin slowdown_pct=100" --arm "cand=$spin" --out run.json
# Hostile names: markup in a row name, an arm revision and an arm name.
# And a tied interval: r2's head has exactly base's minor faults in every
# rep, so that cell's interval is [0, 0] and must still be drawn visibly.
jq '.rows[0].name = "<script>alert(1)</script>&\"'"'"'r1"
    | .arms[1].revision = "\"><img src=x onerror=alert(2)>"
    | .arms[2].env = {"X": "</code><iframe src=https://example.invalid/>"}
    | .rows[1].reps[].results |= (.head.minor_faults = .base.minor_faults)' run.json >hostile.json

# Only names and r2's minor faults edited: head still FAILs.
expect_rc 1 "$PERFAB" ledger --format html hostile.json
mv "$T/out" report.html
grep -q '<svg class="forest"' report.html || fail "no forest plot in the HTML"
if grep -q '<script' report.html || grep -q '<img' report.html || grep -q '<iframe' report.html; then
	fail "markup from the artifact reached the HTML unescaped"
fi
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;r1' report.html || fail "row name not escaped"
# Nothing external: no src or href attribute leaves the page.
if grep -Eo '(src|href)="[^"#][^"]*"' report.html | grep -q .; then
	fail "external reference: $(grep -Eo '(src|href)="[^"#][^"]*"' report.html | sort -u)"
fi

# 2 rows x 2 head arms = 4 forest plots; 2 rows x 6 judged metrics = 12 traces.
render report.html 4 12 >probe.json 2>probe.err
rc=$?
[ "$rc" = 77 ] && { cat probe.err >&2; exit 77; }
[ "$rc" = 0 ] || { cat probe.json probe.err >&2; fail "the report did not render cleanly"; }
jq -e '.forest == 4 and .trace == 12 and .polylines >= 36 and .console_errors == []' probe.json >/dev/null ||
	fail "probe: $(cat probe.json)"

# Nothing clipped at a phone's width either: plots scale down, tables scroll.
render report.html 4 12 400 >probe400.json 2>probe400.err ||
	{ cat probe400.json probe400.err >&2; fail "the report is clipped at 400 px"; }
jq -e '.width == 400 and .n_clipped == 0' probe400.json >/dev/null || fail "probe at 400 px: $(cat probe400.json)"
# The log-factor axis: ticks read as factors, never as exponents.
grep -q 'class="tick" [^>]*>\(1\|\xc3\x97[0-9.]*\|\xc3\xb7[0-9.]*\)<' report.html || fail "no factor ticks on the forest axis"
if grep -Eq 'class="tick"[^>]*>[^<]*e[+-][0-9]' report.html; then fail "an exponent in a tick label"; fi
# An overview of every row and metric.
grep -q '<table id="overview">' report.html || fail "no all-rows overview"

# Every FAIL cell of the Overview in view without scrolling sideways, at a
# laptop's 1024 px, a desktop's 1920 px and a phone's 390 px: the demo's
# committed artifact (4 rows x 5 metrics, 9 FAIL cells, the last ones in
# the later metric columns). At every width the forest plots fit the page
# with text of at least 9 px, and the base and null arms (a workload run:
# no argv of their own) name their command.
expect_rc 1 "$PERFAB" ledger --format html "$top_srcdir/tests/data/demo-run.json"
mv "$T/out" demo.html
for w in 1024 1920 390; do
	render demo.html 4 20 "$w" >demo$w.json 2>demo$w.err ||
		{ cat demo$w.json demo$w.err >&2; fail "the demo report at $w px: a FAIL cell, a forest plot or a command not in view"; }
	jq -e --argjson w "$w" '.width == $w and .fail_cells == 9 and .n_fail_hidden == 0 and
		.forest_text_px >= 9 and .empty_commands == []' demo$w.json >/dev/null ||
		fail "probe at $w px: $(cat demo$w.json)"
done
grep -q 'perfab-alloc </code> <span class="meta">with each row' demo.html ||
	fail "the base arm of a workload run does not name its program"

# The harness fails pages it must fail: an overview laid out wider than
# the page (FAIL cells out of view at 1024 px), forest text scaled below
# 9 px, an external image (blocked by the
# page's CSP, logged as an error), a console error, traces without lines.
sed 's#</body>#<img src="https://example.invalid/x.png"></body>#' report.html >bad-ext.html
render bad-ext.html 4 12 >/dev/null 2>&1 && fail "an external image passed the render check"
sed -e 's#<meta http-equiv="Content-Security-Policy"[^>]*>##' \
    -e 's#</body>#<script>console.error("boom")</script></body>#' report.html >bad-console.html
render bad-console.html 4 12 >/dev/null 2>&1 && fail "a console error passed the render check"
sed 's#<polyline#<desc#g; s#"/>\(<circle class="pt"\)#"></desc>\1#g' report.html >bad-lines.html
render bad-lines.html 4 12 >/dev/null 2>&1 && fail "traces without polylines passed the render check"
render report.html 5 12 >/dev/null 2>&1 && fail "the forest-plot count is not checked"
sed 's#</body>#<p style="width:900px">wide</p></body>#' report.html >bad-wide.html
render bad-wide.html 4 12 400 >/dev/null 2>&1 && fail "a clipped paragraph passed the 400 px check"
sed 's#</style>#\#overview tr{grid-template-columns:repeat(6,260px)}</style>#' demo.html >bad-overview.html
render bad-overview.html 4 20 1024 >bad-overview.json 2>&1 && fail "a FAIL cell out of view passed at 1024 px"
jq -e '.n_fail_hidden > 0' bad-overview.json >/dev/null || fail "hidden FAIL cells not counted: $(cat bad-overview.json)"
sed 's#</style>#svg.forest{min-width:700px}</style>#' demo.html >bad-forest.html
render bad-forest.html 4 20 390 >/dev/null 2>&1 && fail "a forest plot wider than a phone passed at 390 px"
exit 0
