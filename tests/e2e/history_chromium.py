#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/e2e/history_chromium.py — render a `perfab history html` page in
headless Chromium and check it drew, with the DevTools pipe of
report_chromium.py (python3 standard library only).

usage: history_chromium.py CHROMIUM FILE.html MIN_PLOTS [WIDTH]

Checks: at least MIN_PLOTS svg.history plots, each with a non-empty box,
a visible level polyline, a band and a point per merge; change-point
lines drawn where the page has them; no script, nothing external, no
console error; at WIDTH px (default 1400) nothing scrolls sideways and no
plot or text reaches past the viewport or out of its plot. Prints a JSON
summary; exit 0 when it all holds, 1 otherwise, 77 when the browser
cannot start.
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
  const W = window.innerWidth, clipped = [];
  const seen = (e) => { const b = e.getBBox(); const st = getComputedStyle(e);
    return (b.width > 0 || b.height > 0) && st.visibility !== 'hidden'; };
  if (document.documentElement.scrollWidth > W + 1)
    clipped.push('page scrolls sideways: ' + document.documentElement.scrollWidth);
  let ok = plots.length > 0;
  for (const svg of plots) {
    const r = svg.getBoundingClientRect();
    if (r.width < 50 || r.height < 50) ok = false;
    if (r.left < -1 || r.right > W + 1) clipped.push('svg spans ' + r.left + '..' + r.right);
    const lv = svg.querySelector('polyline.level'), band = svg.querySelector('path.band');
    if (!lv || !seen(lv) || getComputedStyle(lv).stroke === 'none') ok = false;
    if (!band || !seen(band)) ok = false;
    if (svg.querySelectorAll('circle.merge').length === 0) ok = false;
    for (const t of svg.querySelectorAll('text')) {
      const q = t.getBoundingClientRect();
      if (q.width === 0) continue;
      if (q.left < r.left - 2 || q.right > r.right + 2 || q.top < r.top - 2 || q.bottom > r.bottom + 2)
        clipped.push('text "' + t.textContent.slice(0, 40) + '" outside its plot');
    }
  }
  for (const el of document.body.querySelectorAll('h1,h2,p,section')) {
    const r = el.getBoundingClientRect();
    if (r.right > W + 1) clipped.push(el.tagName.toLowerCase() + ' reaches ' + r.right);
  }
  const cps = [...document.querySelectorAll('svg.history line.cp')];
  const ext = [...document.querySelectorAll('[src],[href]')]
    .map((e) => e.getAttribute('src') || e.getAttribute('href')).filter((u) => !u.startsWith('#'));
  const fills = new Set([...document.querySelectorAll('circle.merge')].map((c) => getComputedStyle(c).fill));
  return JSON.stringify({ width: W, plots: plots.length, drawn: ok,
    points: document.querySelectorAll('circle.merge').length, verdict_fills: fills.size,
    change_points: cps.length, change_points_visible: cps.every(seen),
    tooltips: document.querySelectorAll('circle.merge > title').length,
    scripts: document.querySelectorAll('script').length, external: ext,
    clipped: clipped.slice(0, 20), n_clipped: clipped.length });
})()
"""


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
          and probe["scripts"] == 0 and not probe["external"] and probe["n_clipped"] == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
