#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/e2e/history_chromium.py — render a `perfab history html` page in
headless Chromium and check it drew, with the DevTools pipe of
report_chromium.py (python3 standard library only).

usage: history_chromium.py CHROMIUM FILE.html MIN_PLOTS [WIDTH]

Checks: at least MIN_PLOTS svg.history plots, each with a non-empty box,
a visible level polyline, a band and a point per merge, a tolerance line
inside it, the merges' commits along its x axis (none overlapping), y
ticks with 0 and a signed value either way, "+ = worse" stated, every
point and ring whole (the last merge's too); change-point lines drawn
where the page has them; a legend (#legend) with a sample of each of the
six marks and an index (#index) linking every chart; no script, nothing
external, no console error; at WIDTH px (default 1400) nothing scrolls
sideways, no chart box, text or block reaches past the viewport or out of
its plot (a chart may scroll inside its own box), and no chart text is
below MIN_TEXT_PX as scaled. Prints a JSON summary; exit 0 when it all
holds, 1 otherwise, 77 when the browser cannot start.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_chromium import Pipe  # noqa: E402  (the same DevTools pipe)

PROBE = r"""
(() => {
  const plots = [...document.querySelectorAll('svg.history')];
  const W = window.innerWidth, clipped = [], missing = [];
  const seen = (e) => { const b = e.getBBox(); const st = getComputedStyle(e);
    return (b.width > 0 || b.height > 0) && st.visibility !== 'hidden'; };
  const inside = (q, r) => q.left >= r.left - 2 && q.right <= r.right + 2 &&
    q.top >= r.top - 2 && q.bottom <= r.bottom + 2;
  if (document.documentElement.scrollWidth > W + 1)
    clipped.push('page scrolls sideways: ' + document.documentElement.scrollWidth);
  let ok = plots.length > 0, textPx = Infinity;
  plots.forEach((svg, k) => {
    const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    const box = svg.closest('.plot');
    if (r.width < 50 || r.height < 50) ok = false;
    // A chart wider than the page scrolls in its own box, which must fit.
    const outer = box ? box.getBoundingClientRect() : r;
    if (outer.left < -1 || outer.right > W + 1) clipped.push('chart spans ' + outer.left + '..' + outer.right);
    const lv = svg.querySelector('polyline.level'), band = svg.querySelector('path.band');
    if (!lv || !seen(lv) || getComputedStyle(lv).stroke === 'none') ok = false;
    if (!band || !seen(band)) ok = false;
    if (svg.querySelectorAll('circle.merge').length === 0) ok = false;
    for (const t of svg.querySelectorAll('text')) {
      const q = t.getBoundingClientRect();
      if (q.width === 0) continue;
      if (!inside(q, r)) clipped.push('text "' + t.textContent.slice(0, 40) + '" outside its plot');
      textPx = Math.min(textPx, parseFloat(getComputedStyle(t).fontSize) * (vb && vb.width ? r.width / vb.width : 1));
    }
    // Every point and ring whole, the last merge's too.
    for (const c of svg.querySelectorAll('circle'))
      if (!inside(c.getBoundingClientRect(), r)) clipped.push('chart ' + k + ': a ' + c.getAttribute('class') + ' point cut');
    // The tolerance, drawn inside the plot.
    const tol = svg.querySelector('line.tol.worse');
    if (!tol || !seen(tol) || getComputedStyle(tol).stroke === 'none' || !inside(tol.getBoundingClientRect(), r))
      missing.push('chart ' + k + ': no tolerance line');
    // Commits along the x axis, no two overlapping.
    const commits = [...svg.querySelectorAll('text.commit')].map((t) => t.getBoundingClientRect());
    if (commits.length === 0) missing.push('chart ' + k + ': no commit on the x axis');
    commits.sort((a, b) => a.left - b.left);
    for (let i = 1; i < commits.length; i++)
      if (commits[i].left < commits[i - 1].right) missing.push('chart ' + k + ': commit labels overlap');
    // Y ticks: zero and the sign.
    const ticks = [...svg.querySelectorAll('text.ytick')].map((t) => t.textContent);
    if (!ticks.includes('0') || !ticks.some((t) => t.startsWith('+')) || !ticks.some((t) => t.startsWith('\u2212')))
      missing.push('chart ' + k + ': y ticks ' + JSON.stringify(ticks) + ' lack 0 or a sign');
    if (!svg.textContent.includes('+ = worse')) missing.push('chart ' + k + ': "+ = worse" not stated');
  });
  for (const el of document.body.querySelectorAll('h1,h2,p,section,nav,#legend')) {
    const r = el.getBoundingClientRect();
    if (r.right > W + 1) clipped.push(el.tagName.toLowerCase() + ' reaches ' + r.right);
  }
  // A legend of every mark, and an index that reaches every chart.
  const legend = document.getElementById('legend');
  const marks = legend ? ['level', 'band', 'merge', 'tol', 'cp', 'step'].filter((c) => legend.querySelector('.' + c)) : [];
  const index = [...document.querySelectorAll('#index a[href^="#"]')];
  const indexed = index.filter((a) => { const t = document.getElementById(a.getAttribute('href').slice(1));
    return t && t.querySelector('svg.history'); }).length;
  const cps = [...document.querySelectorAll('svg.history line.cp')];
  const ext = [...document.querySelectorAll('[src],[href]')]
    .map((e) => e.getAttribute('src') || e.getAttribute('href')).filter((u) => !u.startsWith('#'));
  const fills = new Set([...document.querySelectorAll('svg.history circle.merge')].map((c) => getComputedStyle(c).fill));
  return JSON.stringify({ width: W, plots: plots.length, drawn: ok,
    points: document.querySelectorAll('svg.history circle.merge').length, verdict_fills: fills.size,
    change_points: cps.length, change_points_visible: cps.every(seen),
    tooltips: document.querySelectorAll('svg.history circle.merge > title').length,
    legend_marks: marks, indexed: indexed, index_links: index.length,
    commit_labels: [...document.querySelectorAll('svg.history text.commit')].map((t) => t.textContent),
    tolerance_lines: document.querySelectorAll('svg.history line.tol').length,
    text_px: plots.length ? Math.round(textPx * 10) / 10 : null,
    missing: missing.slice(0, 20), n_missing: missing.length,
    scripts: document.querySelectorAll('script').length, external: ext,
    clipped: clipped.slice(0, 20), n_clipped: clipped.length });
})()
"""

# The smallest chart text, in CSS px as scaled.
MIN_TEXT_PX = 9


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    chromium, html, min_plots = sys.argv[1], sys.argv[2], int(sys.argv[3])
    width = int(sys.argv[4]) if len(sys.argv) == 5 else 1400
    profile = tempfile.mkdtemp(prefix="perfab-chromium.")
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()

    def wire():
        a, b = os.dup(to_child_r), os.dup(from_child_w)
        os.dup2(a, 3)
        os.dup2(b, 4)

    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-extensions", "--disable-default-apps",
            "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
    try:
        proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=wire, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except OSError as e:
        print("cannot start %s: %s" % (chromium, e), file=sys.stderr)
        return 77
    os.close(to_child_r)
    os.close(from_child_w)
    p = Pipe(proc, to_child_w, from_child_r)
    try:
        target = p.send("Target.createTarget", {"url": "about:blank"})["result"]["targetId"]
        sess = p.send("Target.attachToTarget", {"targetId": target, "flatten": True})["result"]["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            p.send(domain, session=sess)
        p.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900,
               "deviceScaleFactor": 1, "mobile": False}, session=sess)
        p.send("Page.navigate", {"url": "file://" + os.path.abspath(html)}, session=sess)
        p.wait(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == sess)
        time.sleep(0.5)
        res = p.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=sess)
        probe = json.loads(res["result"]["result"]["value"])
        try:
            p.send("Browser.close")
        except (EOFError, TimeoutError, RuntimeError):
            pass
    except (EOFError, TimeoutError) as e:
        proc.kill()
        print("chromium did not answer: %s" % e, file=sys.stderr)
        return 77 if not p.events else 1
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    errors = []
    for m in p.events:
        meth, prm = m.get("method"), m.get("params", {})
        if meth == "Runtime.consoleAPICalled" and prm.get("type") in ("error", "assert", "warning"):
            errors.append("console.%s" % prm.get("type"))
        elif meth == "Runtime.exceptionThrown":
            errors.append("exception: %s" % prm.get("exceptionDetails", {}).get("text"))
        elif meth == "Log.entryAdded" and prm.get("entry", {}).get("level") in ("error", "warning"):
            errors.append("log: %s" % prm["entry"].get("text"))
    probe["console_errors"] = errors
    print(json.dumps(probe, indent=1))
    ok = (not errors and probe["plots"] >= min_plots and probe["drawn"]
          and probe["tooltips"] == probe["points"] and probe["change_points_visible"]
          and probe["scripts"] == 0 and not probe["external"] and probe["n_clipped"] == 0
          and probe["n_missing"] == 0 and len(probe["legend_marks"]) == 6
          and probe["indexed"] == probe["plots"] and (probe["text_px"] or 0) >= MIN_TEXT_PX)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
