#!/usr/bin/python3
"""Opens clustertwin HTML reports in headless Chromium and checks them (issue 14).

The harness drives Chromium over the DevTools protocol (python3-websocket; Debian packages only):
one browser per `Browser` (a temporary --user-data-dir, killed and removed on exit), one fresh tab
per report. `check_report(path, plots)` opens the file by file:// and asserts

  * no console error, no uncaught exception, no log entry of level error;
  * no network request other than the file itself (the report is self-contained);
  * a screenshot is a non-empty PNG (kept in the browser's temporary folder; copied to the folder
    $CT_KEEP_SCREENSHOTS names, when set);
  * no two labels overlap, no label lies over a bar or under a bundle line or outside its chart,
    every chart has a visible mark (_LAYOUT below, issue 23); printed, no text box cuts its lines;
  * every expected plot is there: <svg class="ct-plot" data-plot=ID> with the kind and the counts
    of hooked elements given (svg_chart.h: ct-bar, ct-line, ct-point, ct-bin, ct-cell, ct-node,
    ct-edge, ct-step, ct-option, ct-arrow, ct-span, ct-legend-item), and its title, axis labels and command
    line present;

and returns a `Page` with what the browser shows: the tables (data-table id -> header + rows of
cell texts, as rendered), the plots (their hooked elements' data-* attributes) and the load time
(navigation start to the end of the load event, from the browser's Navigation Timing).

Usage from a test:
    html, report, command = write_report(binary, src, ["plan", "x.yaml"], tmp, "x")
    with Browser() as b:
        page = b.check_report("plan.html", {"fabric": {"kind": "diagram", "ct-node": 3}})
        page.table("tiers")  # [{"tier": "leaf", "switches": "4", ...}, ...]

The commands' page tests share the rest: `run_pages(cases, prefix)` (one browser, each case's
run, check and command line), and the comparisons `expect`, `close`, `shown`, `value`, `facts`.
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import re
import tempfile
import time
import urllib.parse

import websocket  # Debian python3-websocket

CHROMIUM = os.environ.get("CT_CHROMIUM", "/usr/bin/chromium")
HOOKS = ["ct-bar", "ct-line", "ct-point", "ct-bin", "ct-cell", "ct-node", "ct-edge", "ct-legend-item", "ct-ref",
         "ct-step", "ct-option", "ct-arrow", "ct-span"]

# Collected in the page after load: every plot's hooked elements with their data-* attributes, every
# table's visible cell texts, and the navigation timing.
_COLLECT = """
(() => {
  const data = el => Object.assign({text: el.textContent,
                                     texts: Array.from(el.querySelectorAll('text')).map(t => t.textContent),
                                     stroke_width: el.getAttribute('stroke-width') || '',
                                     dash: el.getAttribute('stroke-dasharray') || '',
                                     r: el.getAttribute('r') || ''},
                                    el.dataset);
  const plots = {};
  for (const svg of document.querySelectorAll('svg.ct-plot')) {
    const p = {kind: svg.dataset.kind,
               title: (svg.querySelector('.ct-title') || {}).textContent || '',
               x_label: (svg.querySelector('.ct-x-label') || {}).textContent || '',
               y_label: (svg.querySelector('.ct-y-label') || {}).textContent || '',
               command: Array.from(svg.querySelectorAll('.ct-command')).map(t => t.textContent).join(' '),
               width: svg.getBoundingClientRect().width,
               height: svg.getBoundingClientRect().height,
               elements: {},
               // every text drawn, without its tooltip (a <title> child)
               texts: Array.from(svg.querySelectorAll('text')).map(t => Array.from(t.childNodes)
                        .filter(n => n.nodeType === 3).map(n => n.data).join(''))};
    for (const hook of HOOKS) p.elements[hook] = Array.from(svg.querySelectorAll('.' + hook)).map(data);
    if (plots[svg.dataset.plot]) throw new Error('two plots named ' + svg.dataset.plot);
    plots[svg.dataset.plot] = p;
  }
  const tables = {};
  for (const t of document.querySelectorAll('table.ct-table')) {
    const rows = Array.from(t.querySelectorAll('tr')).map(r => Array.from(r.cells).map(c => c.innerText));
    if (tables[t.dataset.table]) throw new Error('two tables named ' + t.dataset.table);
    tables[t.dataset.table] = {header: rows[0] || [], rows: rows.slice(1), caption: t.caption ? t.caption.textContent : ''};
  }
  const nav = performance.getEntriesByType('navigation')[0];
  return {plots, tables, load_ms: nav ? nav.loadEventEnd : -1,
          command_line: (document.querySelector('[data-command-line]') || {}).textContent || '',
          text: document.body.innerText};
})()
""".replace("HOOKS", json.dumps(HOOKS))

# Measured in the page after load (issue 23, item 22), per plot: label boxes from SVG getBBox()
# mapped through getCTM() (so slanted labels are the rotated rectangles they are), each trimmed by
# 20 % of its height at top and bottom (a font box's ascent and descent padding, empty for most
# glyphs). Problems returned:
#   * two labels closer than 3 px side by side or overlapping ("0 0.000318" must not read
#     "00.000318"; separating-axis test on the two quadrilaterals, each widened 1.5 px a side);
#   * a label over a data mark (ct-bar, ct-bin, ct-span rectangles) or struck through by a bundle
#     line (a ct-edge's line), unless it is painted later on an opaque ct-label-bg box;
#   * a label outside the chart (cut off by the SVG's edge);
#   * a chart with no visible mark, and a line series with no extent and no marker (a one-point
#     path draws nothing).
_LAYOUT = """
(() => {
  const out = [];
  const quad = (el, trim, pad) => {
    const b = el.getBBox(), m = el.getCTM();
    const dx = pad ? -pad : 0, dy = trim ? b.height * 0.2 : 0;
    const pts = [[b.x + dx, b.y + dy], [b.x + b.width - dx, b.y + dy], [b.x + b.width - dx, b.y + b.height - dy],
                 [b.x + dx, b.y + b.height - dy]];
    return pts.map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  };
  const lineQuad = el => {
    const m = el.getCTM(), a = [el.x1.baseVal.value, el.y1.baseVal.value], b = [el.x2.baseVal.value, el.y2.baseVal.value];
    return [a, b].map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  };
  const project = (poly, nx, ny) => {
    let lo = Infinity, hi = -Infinity;
    for (const [x, y] of poly) { const d = nx * x + ny * y; lo = Math.min(lo, d); hi = Math.max(hi, d); }
    return [lo, hi];
  };
  const overlap = (P, Q) => {
    for (const poly of [P, Q]) {
      for (let i = 0; i < poly.length; i++) {
        const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % poly.length];
        const nx = y2 - y1, ny = x1 - x2;
        if (nx === 0 && ny === 0) continue;
        const [a0, a1] = project(P, nx, ny), [b0, b1] = project(Q, nx, ny);
        if (a1 <= b0 || b1 <= a0) return false;
      }
    }
    return true;
  };
  const own = el => Array.from(el.childNodes).filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
  const visibleRect = r => r.width.baseVal.value > 0.5 && r.height.baseVal.value > 0.5;
  for (const svg of document.querySelectorAll('svg.ct-plot')) {
    const id = svg.dataset.plot, W = svg.viewBox.baseVal.width, H = svg.viewBox.baseVal.height;
    const labels = Array.from(svg.querySelectorAll('text')).filter(t => own(t) !== '')
                        .map(t => ({el: t, text: own(t), q: quad(t, true, 1.5), inner: quad(t, true, 0)}));
    for (let i = 0; i < labels.length; i++) {
      for (const [x, y] of labels[i].inner) {
        if (x < -1 || y < -1 || x > W + 1 || y > H + 1) {
          out.push(`plot ${id}: label ${JSON.stringify(labels[i].text)} outside the chart`); break;
        }
      }
      for (let j = i + 1; j < labels.length; j++) {
        if (overlap(labels[i].q, labels[j].q))
          out.push(`plot ${id}: labels ${JSON.stringify(labels[i].text)} and ${JSON.stringify(labels[j].text)} overlap`);
      }
    }
    const rects = Array.from(svg.querySelectorAll('rect.ct-bar, rect.ct-bin, rect.ct-span')).filter(visibleRect);
    const lines = Array.from(svg.querySelectorAll('.ct-edge line'));
    for (const l of labels) {
      for (const r of rects) {
        if (overlap(l.inner, quad(r, false, 0)))
          out.push(`plot ${id}: label ${JSON.stringify(l.text)} over the mark ${JSON.stringify(r.textContent)}`);
      }
      const boxed = l.el.previousElementSibling && l.el.previousElementSibling.classList.contains('ct-label-bg');
      for (const e of lines) {
        const later = e.compareDocumentPosition(l.el) & Node.DOCUMENT_POSITION_FOLLOWING;
        if (boxed && later) continue;
        if (overlap(l.inner, lineQuad(e)))
          out.push(`plot ${id}: label ${JSON.stringify(l.text)} struck through by a line ${e.parentNode.dataset.from || ''}-${e.parentNode.dataset.to || ''}`);
      }
    }
    let marks = 0;
    for (const el of svg.querySelectorAll('.ct-bar, .ct-bin, .ct-cell, .ct-span')) marks += visibleRect(el) ? 1 : 0;
    for (const el of svg.querySelectorAll('.ct-node, .ct-step, .ct-edge')) marks += 1;
    for (const el of svg.querySelectorAll('circle.ct-point')) marks += el.r.baseVal.value > 0 ? 1 : 0;
    for (const el of svg.querySelectorAll('path.ct-line')) {
      const b = el.getBBox();
      const markers = svg.querySelectorAll(`circle.ct-point[data-series="${CSS.escape(el.dataset.series)}"]`).length;
      if (b.width > 0.5 || b.height > 0.5) marks += 1;
      else if (markers === 0) out.push(`plot ${id}: line ${JSON.stringify(el.dataset.series)} has no visible extent`);
    }
    if (marks === 0) out.push(`plot ${id}: no visible mark`);
  }
  return out;
})()
"""

# Under print media: every <pre> whose lines are wider than its box (cut off on paper).
_PRINT_CUT = """
Array.from(document.querySelectorAll('pre')).filter(p => p.scrollWidth > p.clientWidth + 1)
     .map(p => `printed, a text box cuts its lines (${p.scrollWidth} px of text in ${p.clientWidth} px)`)
"""


class CheckError(AssertionError):
    pass


class Page:
    def __init__(self, path, result, screenshot, requests, problems):
        self.path = path
        self.plots = result["plots"]
        self.tables = result["tables"]
        self.load_ms = result["load_ms"]
        self.command_line = result["command_line"]
        self.text = result["text"]
        self.screenshot = screenshot
        self.requests = requests
        self.problems = problems

    def table(self, table_id):
        """Rows of a table as dicts keyed by the header texts."""
        if table_id not in self.tables:
            raise CheckError(f"{self.path}: no table data-table={table_id!r}; have {sorted(self.tables)}")
        t = self.tables[table_id]
        return [dict(zip(t["header"], row)) for row in t["rows"]]

    def elements(self, plot_id, hook):
        return self.plots[plot_id]["elements"][hook]

    def plot_texts(self, plot_id):
        """Every text the plot draws, as shown (a tooltip left out)."""
        return self.plots[plot_id]["texts"]


class Browser:
    """A headless Chromium for the life of a `with` block."""

    def __init__(self, width=1280, height=900):
        self.width, self.height = width, height
        self.dir = None
        self.proc = None
        self.ws = None
        self.next_id = 0

    def __enter__(self):
        # A test runner's SIGTERM (ctest timeout) unwinds through __exit__, so Chromium is killed too.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        if not os.access(CHROMIUM, os.X_OK):
            raise FileNotFoundError(f"{CHROMIUM} not found: run scripts/setup.sh (Debian package chromium)")
        self.dir = tempfile.mkdtemp(prefix="ct-chromium-")
        profile = os.path.join(self.dir, "profile")
        args = [CHROMIUM, "--headless=new", "--remote-debugging-port=0", f"--user-data-dir={profile}",
                "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--mute-audio", "--hide-scrollbars", "--allow-file-access-from-files",
                f"--window-size={self.width},{self.height}", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        self.log = open(os.path.join(self.dir, "chromium.log"), "wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + 60  # until DevTools is up; only how long a broken start takes to fail
        while not (os.path.exists(port_file) and len(open(port_file).read().split()) >= 2):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise RuntimeError("chromium did not start; see its log")
            time.sleep(0.05)
        port, path = open(port_file).read().split()[:2]
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", timeout=60, suppress_origin=True)
        return self

    def __exit__(self, *exc):
        if self.ws is not None:
            try:
                self._call("Browser.close")
            except Exception:
                pass
            self.ws.close()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.dir is not None:
            self.log.close()
            shutil.rmtree(self.dir, ignore_errors=True)
        return False

    # -- DevTools protocol --------------------------------------------------------------------
    def _call(self, method, params=None, session=None, events=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if events is not None and "method" in reply:
                events.append(reply)

    def _wait_event(self, name, session, events, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for e in events:
                if e["method"] == name and e.get("sessionId") == session:
                    return e
            if time.monotonic() > deadline:
                raise CheckError(f"no {name} within {timeout} s")
            events.append(json.loads(self.ws.recv()))

    # -- one report ---------------------------------------------------------------------------
    def open(self, path):
        """Loads `path`, returns a Page (no assertions beyond the load itself)."""
        path = os.path.abspath(path)
        url = "file://" + urllib.parse.quote(path)
        events = []
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        try:
            for domain in ("Page", "Runtime", "Network", "Log"):
                self._call(f"{domain}.enable", session=session, events=events)
            self._call("Emulation.setDeviceMetricsOverride",
                       {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False},
                       session=session, events=events)
            self._call("Page.navigate", {"url": url}, session=session, events=events)
            self._wait_event("Page.loadEventFired", session, events)
            result = self._call("Runtime.evaluate", {"expression": _COLLECT, "returnByValue": True},
                                session=session, events=events)
            if "exceptionDetails" in result:
                raise CheckError(f"{path}: collecting the page failed: {result['exceptionDetails']}")
            layout = self._call("Runtime.evaluate", {"expression": _LAYOUT, "returnByValue": True},
                                session=session, events=events)
            if "exceptionDetails" in layout:
                raise CheckError(f"{path}: measuring the page failed: {layout['exceptionDetails']}")
            # Printed (a postmortem's PDF), no preformatted box may cut its lines.
            self._call("Emulation.setEmulatedMedia", {"media": "print"}, session=session, events=events)
            cut = self._call("Runtime.evaluate", {"expression": _PRINT_CUT, "returnByValue": True},
                             session=session, events=events)
            self._call("Emulation.setEmulatedMedia", {"media": ""}, session=session, events=events)
            shot = self._call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                              session=session, events=events)
            png = base64.b64decode(shot["data"])
            screenshot = os.path.join(self.dir, os.path.basename(path) + ".png")
            with open(screenshot, "wb") as f:
                f.write(png)
            keep = os.environ.get("CT_KEEP_SCREENSHOTS")  # a folder to copy them to, for a look
            if keep:
                shutil.copy(screenshot, keep)
        finally:
            self._call("Target.closeTarget", {"targetId": target}, events=events)
        mine = [e for e in events if e.get("sessionId") == session]
        requests = [e["params"]["request"]["url"] for e in mine if e["method"] == "Network.requestWillBeSent"]
        problems = []
        for e in mine:
            m, p = e["method"], e["params"]
            if m == "Runtime.exceptionThrown":
                problems.append("exception: " + p["exceptionDetails"].get("text", "") + " " +
                                str(p["exceptionDetails"].get("exception", {}).get("description", "")))
            elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert", "warning"):
                problems.append(f"console.{p['type']}: " + " ".join(str(a.get("value", a.get("description")))
                                                                  for a in p["args"]))
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                problems.append(f"log {p['entry']['level']}: {p['entry']['text']} {p['entry'].get('url', '')}")
        page = Page(path, result["result"]["value"], screenshot, requests, problems)
        page.layout = layout["result"]["value"] + cut["result"]["value"]
        page.url = url
        return page

    def check_report(self, path, plots, tables=()):
        """Opens `path` and asserts the checks of the module docstring. `plots` maps a plot id to
        {"kind": ..., hook: count, ..., "series": [names]}; `tables` lists table ids that must be
        there. Returns the Page."""
        page = self.open(path)
        errors = list(page.problems) + list(page.layout)
        others = [u for u in page.requests if u != page.url]
        if others:
            errors.append(f"network requests besides the file: {others}")
        if page.url not in page.requests:
            errors.append(f"the file itself was not requested? requests: {page.requests}")
        with open(page.screenshot, "rb") as f:
            head = f.read(8)
        if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(page.screenshot) < 1000:
            errors.append(f"screenshot {page.screenshot} is not a PNG of a rendered page")
        for plot_id, expected in plots.items():
            if plot_id not in page.plots:
                errors.append(f"no plot data-plot={plot_id!r}; have {sorted(page.plots)}")
                continue
            p = page.plots[plot_id]
            for what in ("title", "x_label", "command"):
                if not p[what].strip():
                    errors.append(f"plot {plot_id}: no {what}")
            if not p["command"].startswith("$ clustertwin "):
                errors.append(f"plot {plot_id}: command line {p['command']!r}")
            if p["width"] <= 0 or p["height"] <= 0:
                errors.append(f"plot {plot_id}: not rendered ({p['width']} x {p['height']})")
            for key, want in expected.items():
                if key == "kind":
                    got = p["kind"]
                elif key == "series":
                    got = [e["series"] for e in p["elements"]["ct-legend-item"]]
                else:
                    got = len(p["elements"][key])
                if got != want:
                    errors.append(f"plot {plot_id}: {key} is {got!r}, expected {want!r}")
        for table_id in tables:
            if table_id not in page.tables:
                errors.append(f"no table data-table={table_id!r}; have {sorted(page.tables)}")
        if errors:
            raise CheckError(f"{path}:\n  " + "\n  ".join(errors))
        return page


# Options that cannot change a page, left out of the command line it shows (cli/command.h
# result_arguments): the flags alone, and those followed by their value.
_NO_PART_FLAGS = {"--json", "--quiet", "--progress"}
_NO_PART_VALUED = {"--threads", "-o", "--output", "--html", "--jsonl", "--sarif", "--lft", "--csv"}


def _takes_no_part(flag):
    return flag in _NO_PART_FLAGS or flag in _NO_PART_VALUED or flag.startswith("--csv-")


def quoted(argv):
    """The command line as the page shows it (src/cli/command.cpp quoted_command_line()): argv
    less --threads, --quiet, --progress and the outputs' options with their values."""
    out = ["clustertwin"]
    kept, skip = [], False
    for a in argv:
        flag = a.split("=", 1)[0]
        if skip:
            skip = False
        elif _takes_no_part(flag):
            skip = flag == a and flag not in _NO_PART_FLAGS
        else:
            kept.append(a)
    for a in kept:
        if a and re.fullmatch(r"[A-Za-z0-9_./:=@%+,-]+", a):
            out.append(a)
        else:
            out.append("'" + a.replace("'", "'\\''") + "'")
    return "$ " + " ".join(out)


def write_report(binary, src, args, out_dir, name):
    """Runs `clustertwin ARGS --json -o OUT/NAME.json --html OUT/NAME.html` from the source folder
    (catalog: SOURCE/catalog) and returns (html path, the parsed JSON, the command line as the page
    should show it). Raises CheckError when the run fails."""
    html, js = os.path.join(out_dir, name + ".html"), os.path.join(out_dir, name + ".json")
    argv = list(args) + ["--json", "-o", js, "--html", html]
    r = subprocess.run([binary] + argv, cwd=src, env=_env(src), capture_output=True, text=True)
    if r.returncode != 0:
        raise CheckError(f"clustertwin {' '.join(argv)}: exit {r.returncode}: {r.stderr}")
    with open(js) as f:
        return html, json.load(f), quoted(argv)


def _env(src):
    return dict(os.environ, CLUSTERTWIN_CATALOG=os.path.join(src, "catalog"))


def run_pages(cases, prefix, text_report=False):
    """The main() of a commands' page test (argv: CLUSTERTWIN SOURCE_DIR): exit 77 without
    Chromium; else one browser, and for each (name, args, check) the run with --json and --html,
    `check(browser, html, report)` (with `text_report`, also the text report of the same arguments
    as a last argument) returning the Page, whose command line must be the run's. Returns the exit
    code: 0, or a CheckError propagates."""
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not os.access(CHROMIUM, os.X_OK):
        print(f"SKIP: {CHROMIUM} not installed (scripts/setup.sh installs Debian chromium)")
        return 77
    with tempfile.TemporaryDirectory(prefix=prefix) as out, Browser() as browser:
        for name, args, check in cases:
            html, report, command = write_report(binary, src, args, out, name)
            if text_report:
                text = subprocess.run([binary] + list(args), cwd=src, env=_env(src), capture_output=True, text=True,
                                      check=True).stdout
                page = check(browser, html, report, text)
            else:
                page = check(browser, html, report)
            expect(page.command_line == command, f"{name}: command line shown {page.command_line!r}, ran {command!r}")
            print(f"ok: {name}: {len(page.plots)} plots, {len(page.tables)} tables, "
                  f"{os.path.getsize(html):,} bytes, load event ended at {page.load_ms:.0f} ms")
    return 0


def expect(cond, message):
    if not cond:
        raise CheckError(message)


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-300


_SI = {"p": 1e-12, "n": 1e-9, "\u00b5": 1e-6, "m": 1e-3, "": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_POLICY = re.compile(r"(-?[0-9][0-9,]*(?:\.[0-9]+)?(?:e-?[0-9]+)?)(%| ([pnmkMGTP\u00b5]?)([A-Za-z/]+))?")


def quantity(text):
    """A number as the pages print it (src/report/html/page_numbers.h), checked against the policy,
    as a float in base units: "32,768" -> 32768, "0.0695", "3.18e-4", "41.3 ms" -> 0.0413,
    "69.5 Mb/s" -> 6.95e7, "12.5%" -> 0.125. Raises CheckError on text the policy never prints: a
    negative zero, more than three significant figures after the point, a whole number with a
    fraction ("7.0"), or "1e+15"."""
    t = text.strip()
    m = _POLICY.fullmatch(t)
    expect(m is not None, f"{text!r} is not a number as the pages print them")
    digits = m.group(1).lstrip("-").replace(",", "")
    expect(m.group(1) != "-0" and not re.fullmatch(r"-0(\.0*)?", m.group(1)), f"{text!r}: negative zero")
    mantissa = digits.split("e")[0]
    if "." in mantissa:
        whole, frac = mantissa.split(".")
        significant = (whole.lstrip("0") + frac).lstrip("0")
        expect(len(significant) <= 3 and not frac.endswith("0"), f"{text!r}: more than three significant figures")
        expect(abs(float(mantissa)) < 100, f"{text!r}: a fraction on a number of three integer digits")
    v = float(m.group(1).replace(",", ""))
    if m.group(2) == "%":
        return v / 100
    if m.group(2):
        v *= _SI[m.group(3)]
    return v


def shown(text, want, what):
    """A figure as the page prints it (three significant figures, SI prefixes; quantity()) against
    the JSON's, in base units (b/s, s, B/s; a share for a percentage)."""
    got = quantity(text)
    expect(close(got, want, 5e-3) or abs(got - want) < 1e-12, f"{what}: page {text!r}, JSON {want}")


def value(element, want, what, key="value"):
    """A plot element's data-KEY (the double itself) against the JSON's."""
    got = float(element[key])
    expect(close(got, want, 1e-12), f"{what}: data-{key} {element[key]}, JSON {want}")


def facts(page, table_id):
    """A facts table (quantity, value) as a dict."""
    return {row["quantity"]: row["value"] for row in page.table(table_id)}


def count(text):
    """A whole number as the pages print it ("32,768")."""
    v = quantity(text)
    expect(v == int(v), f"{text!r} is not a whole number")
    return int(v)


def number(text):
    """A number as a report prints it: "32,768" -> 32768, "1.6T" -> 1.6e12, "50%" -> 0.5;
    "-", "unknown" -> None."""
    t = text.strip().replace(",", "")
    if t in ("-", "unknown", ""):
        return None
    scale = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
    if t.endswith("%"):
        return float(t[:-1]) / 100
    if t[-1] in scale:
        return float(t[:-1]) * scale[t[-1]]
    return float(t)
