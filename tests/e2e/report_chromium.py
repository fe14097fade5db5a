#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/e2e/report_chromium.py — render an HTML report in headless Chromium and
check it drew: driven over the DevTools protocol on --remote-debugging-pipe,
python3 standard library only.

usage: report_chromium.py CHROMIUM FILE.html MIN_FOREST MIN_TRACE [WIDTH]

Loads FILE.html (file://, no network: the browser's own background traffic
is disabled), collects every console message, log entry and exception,
then evaluates a probe in the page: how many forest-plot and trace SVGs
there are, that each has a non-empty rendered box, that the trace
polylines and forest intervals have visible geometry, and whether any
<script> or external reference exists, and what is clipped at a viewport
WIDTH px wide (default 1400): the page scrolling sideways, an SVG reaching
past the viewport, a text of a plot reaching past its SVG, anything outside
a scrollable table box reaching past the viewport, a forest plot wider
than the viewport (even in a scrolling box), a FAIL cell of the Overview
(#overview td.fail) outside the viewport or cut by a box that scrolls; the
smallest forest-plot text in CSS px as scaled, and the arms whose command
cell is empty. Prints a JSON summary. Exit 0 when there are at least
MIN_FOREST forest plots and MIN_TRACE trace plots, all drawn, nothing
clipped, every FAIL cell in view, no forest text below MIN_TEXT_PX, no
empty command and no console error; 1 otherwise; 77 when the browser cannot be
started at all (no display stack to speak of is needed: --headless).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

# The smallest text a forest plot may show, in CSS px once scaled with
# the plot (13 px drawn in a 460 px plot on a 358 px wide page is 10 px).
MIN_TEXT_PX = 9

PROBE = r"""
(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.width, r.height]; };
  const forests = [...document.querySelectorAll('svg.forest')];
  const traces = [...document.querySelectorAll('svg.trace')];
  const drawn = (svgs) => svgs.every((s) => { const [w, h] = box(s); return w > 50 && h > 50; });
  const lines = [...document.querySelectorAll('svg.forest line.ci')];
  const polys = [...document.querySelectorAll('svg.trace polyline.arm')];
  const visible = (els) => els.every((e) => {
    const b = e.getBBox(); const st = getComputedStyle(e);
    return (b.width > 0 || b.height > 0) && st.stroke !== 'none' && st.visibility !== 'hidden';
  });
  const ext = [...document.querySelectorAll('[src],[href]')]
    .map((e) => e.getAttribute('src') || e.getAttribute('href'))
    .filter((u) => !u.startsWith('#'));
  const W = window.innerWidth, clipped = [];
  if (document.documentElement.scrollWidth > W + 1)
    clipped.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + W);
  const inScroll = (el) => !!el.closest('.scroll');
  for (const svg of document.querySelectorAll('svg')) {
    const r = svg.getBoundingClientRect();
    if (!inScroll(svg) && (r.left < -1 || r.right > W + 1))
      clipped.push('svg ' + (svg.getAttribute('aria-label') || '') + ' spans ' + r.left + '..' + r.right);
    for (const t of svg.querySelectorAll('text')) {
      const q = t.getBoundingClientRect();
      if (q.width === 0) continue;
      if (q.left < r.left - 2 || q.right > r.right + 2 || q.top < r.top - 2 || q.bottom > r.bottom + 2)
        clipped.push('text "' + t.textContent.slice(0, 40) + '" outside its plot');
    }
  }
  // Every FAIL cell of the Overview in view: inside the viewport and not
  // cut by a box that scrolls or hides what overflows it.
  const failCells = [...document.querySelectorAll('#overview td.fail')], failHidden = [];
  const cutBy = (el) => {
    const q = el.getBoundingClientRect();
    if (q.width === 0 || q.left < -1 || q.right > W + 1) return 'the viewport';
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (q.left < b.left - 1 || q.right > b.right + 1) return a.tagName.toLowerCase() + '.' + a.className;
    }
    return null;
  };
  for (const td of failCells) {
    const why = cutBy(td);
    if (why) failHidden.push(td.textContent.slice(0, 40) + ' (cut by ' + why + ')');
  }
  // The forest plots fit the page (no sideways scrolling) and their text,
  // scaled with the plot, stays legible: its size in CSS px.
  let forestTextPx = Infinity;
  for (const svg of forests) {
    const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    if (r.left < -1 || r.right > W + 1) clipped.push('forest plot spans ' + r.left + '..' + r.right);
    const k = vb && vb.width ? r.width / vb.width : 1;
    for (const t of svg.querySelectorAll('text'))
      forestTextPx = Math.min(forestTextPx, parseFloat(getComputedStyle(t).fontSize) * k);
  }
  // The Arms table's command column: no arm without its command.
  const emptyCommands = [];
  for (const table of document.querySelectorAll('table')) {
    const ths = [...table.querySelectorAll('th')].map((h) => h.textContent.trim());
    const col = ths.indexOf('command');
    if (col < 0) continue;
    for (const tr of table.querySelectorAll('tr')) {
      const tds = tr.querySelectorAll('td');
      if (tds.length > col && !tds[col].textContent.trim()) emptyCommands.push(tds[0].textContent.trim());
    }
  }
  for (const el of document.body.querySelectorAll('h1,h2,h3,p,table,header,section')) {
    if (inScroll(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > W + 1) clipped.push(el.tagName.toLowerCase() + ' reaches ' + r.right + ' > ' + W);
  }
  return JSON.stringify({
    width: W, clipped: clipped.slice(0, 20), n_clipped: clipped.length,
    title: document.title,
    forest: forests.length, trace: traces.length,
    forest_drawn: drawn(forests), trace_drawn: drawn(traces),
    intervals: lines.length, intervals_visible: visible(lines),
    polylines: polys.length, polylines_visible: visible(polys),
    noise_bands: document.querySelectorAll('svg.forest rect.noise').length,
    allowance_bands: document.querySelectorAll('svg.forest rect.allow').length,
    fail_cells: failCells.length, fail_hidden: failHidden.slice(0, 20), n_fail_hidden: failHidden.length,
    forest_text_px: forests.length ? Math.round(forestTextPx * 10) / 10 : null,
    empty_commands: emptyCommands,
    scripts: document.querySelectorAll('script').length,
    external: ext,
  });
})()
"""


class Pipe:
    def __init__(self, proc, wfd, rfd):
        self.proc, self.wfd, self.rfd = proc, wfd, rfd
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next_id)

    def read_one(self, deadline):
        while b"\0" not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from chromium")
            import select
            r, _, _ = select.select([self.rfd], [], [], 0.5)
            if r:
                chunk = os.read(self.rfd, 1 << 16)
                if not chunk:
                    raise EOFError("chromium closed the pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def wait(self, pred, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            m = self.read_one(deadline)
            if "method" in m:
                self.events.append(m)
            if pred(m):
                if "error" in m:
                    raise RuntimeError(json.dumps(m["error"]))
                return m


def main():
    if len(sys.argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    chromium, html, min_forest, min_trace = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    width = int(sys.argv[5]) if len(sys.argv) == 6 else 1400
    url = "file://" + os.path.abspath(html)
    profile = tempfile.mkdtemp(prefix="perfab-chromium.")
    to_child_r, to_child_w = os.pipe()
    from_child_r, from_child_w = os.pipe()

    def wire():
        # The browser reads commands on fd 3 and writes answers on fd 4.
        a, b = os.dup(to_child_r), os.dup(from_child_w)
        os.dup2(a, 3)
        os.dup2(b, 4)

    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--disable-extensions", "--disable-default-apps",
            "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
    try:
        proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=wire,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
    except OSError as e:
        print("cannot start %s: %s" % (chromium, e), file=sys.stderr)
        return 77
    os.close(to_child_r)
    os.close(from_child_w)
    p = Pipe(proc, to_child_w, from_child_r)
    errors = []
    try:
        target = p.send("Target.createTarget", {"url": "about:blank"})["result"]["targetId"]
        sess = p.send("Target.attachToTarget", {"targetId": target, "flatten": True})["result"]["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            p.send(domain, session=sess)
        p.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900,
               "deviceScaleFactor": 1, "mobile": False}, session=sess)
        p.send("Page.navigate", {"url": url}, session=sess)
        p.wait(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == sess)
        # Let late console messages (CSP reports, layout) arrive.
        time.sleep(0.5)
        res = p.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=sess)
        probe = json.loads(res["result"]["result"]["value"])
        try:
            p.send("Browser.close")
        except (EOFError, TimeoutError, RuntimeError):
            pass
    except (EOFError, TimeoutError) as e:
        proc.kill()
        err = proc.stderr.read().decode(errors="replace")
        print("chromium did not answer: %s\n%s" % (e, err[-2000:]), file=sys.stderr)
        return 77 if proc.poll() not in (None, 0) and not p.events else 1
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for m in p.events:
        meth, prm = m.get("method"), m.get("params", {})
        if meth == "Runtime.consoleAPICalled" and prm.get("type") in ("error", "assert", "warning"):
            errors.append("console.%s: %s" % (prm.get("type"),
                          " ".join(str(a.get("value", a.get("description", ""))) for a in prm.get("args", []))))
        elif meth == "Runtime.exceptionThrown":
            errors.append("exception: %s" % prm.get("exceptionDetails", {}).get("text"))
        elif meth == "Log.entryAdded" and prm.get("entry", {}).get("level") in ("error", "warning"):
            e = prm["entry"]
            errors.append("log %s/%s: %s %s" % (e.get("source"), e.get("level"), e.get("text"), e.get("url", "")))
    probe["console_errors"] = errors
    print(json.dumps(probe, indent=1))
    ok = (not errors and probe["forest"] >= min_forest and probe["trace"] >= min_trace
          and probe["forest_drawn"] and probe["trace_drawn"]
          and probe["intervals"] > 0 and probe["intervals_visible"]
          and probe["polylines"] > 0 and probe["polylines_visible"]
          and probe["noise_bands"] > 0 and probe["allowance_bands"] > 0
          and probe["scripts"] == 0 and not probe["external"]
          and probe["n_clipped"] == 0 and probe["n_fail_hidden"] == 0
          and (probe["forest_text_px"] or 0) >= MIN_TEXT_PX and not probe["empty_commands"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
