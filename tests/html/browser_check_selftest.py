#!/usr/bin/python3
"""browser_check.py must fail when a report is broken: each page below breaks one rule, and
check_report must raise CheckError naming it; a good page must pass. Without this, a harness that
never saw the browser's events would pass everything. Then the chart gallery (one chart of every
kind, tests/golden/expected/chart-gallery.html) must load cleanly with every hooked element.

usage: browser_check_selftest.py
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import CheckError  # noqa: E402

PLOT = ('<svg class="ct-plot" data-plot="p" data-kind="bar" xmlns="http://www.w3.org/2000/svg" width="200" '
        'height="100" viewBox="0 0 200 100"><text class="ct-title" x="100" y="14" text-anchor="middle">t</text>'
        '<text class="ct-x-label" x="100" y="80" text-anchor="middle">x (s)</text>'
        '<g class="ct-legend-item" data-series="a"></g>'
        '<rect class="ct-bar" data-series="a" data-value="1" x="40" y="50" width="10" height="10"/>'
        '<rect class="ct-bar" data-series="a" data-value="2" x="60" y="40" width="10" height="20"/>'
        '<text class="ct-command" x="4" y="96" font-size="9">$ clustertwin x</text></svg>')
GOOD = f"<!DOCTYPE html><html><head><meta charset=utf-8><title>t</title></head><body>{PLOT}<pre>text</pre></body></html>"
EXPECTED = {"p": {"kind": "bar", "ct-bar": 2, "series": ["a"]}}

# page body -> a phrase the error must contain
BROKEN = {
    "console": (GOOD.replace("</body>", "<script>console.error('boom')</script></body>"), "console.error: boom"),
    "exception": (GOOD.replace("</body>", "<script>null.x()</script></body>"), "exception"),
    # A TEST-NET-1 address (RFC 5737): never routed; the request is what counts, not its answer.
    "network": (GOOD.replace("</body>", '<img src="http://192.0.2.1/x.png"></body>'), "network requests"),
    "count": (GOOD.replace('<rect class="ct-bar" data-series="a" data-value="2" x="60" y="40" width="10" height="20"/>', ""),
              "ct-bar is 1, expected 2"),
    "missing": (GOOD.replace('data-plot="p"', 'data-plot="q"'), "no plot data-plot='p'"),
    "no-command": (GOOD.replace("$ clustertwin x", ""), "no command"),
    # Issue 23 item 22: what a reader cannot read or cannot see.
    "overlap": (GOOD.replace("</svg>", '<text x="96" y="15">label</text></svg>'), "overlap"),
    "over-a-bar": (GOOD.replace("</svg>", '<text x="40" y="58">0.5</text></svg>'), "over the mark"),
    "cut-off": (GOOD.replace("</svg>", '<text x="170" y="40">a long label</text></svg>'), "outside the chart"),
    "no-mark": (GOOD.replace('height="10"/>', 'height="0"/>').replace('height="20"/>', 'height="0"/>'), "no visible mark"),
    "one-point-line": (GOOD.replace("</svg>", '<path class="ct-line" data-series="a" d="M100 30" stroke="#000"/></svg>'),
                       "has no visible extent"),
    "cut-in-print": (GOOD.replace("<pre>text</pre>", "<pre style='white-space:pre !important'>" + "x" * 400 + "</pre>"),
                     "cuts its lines"),
}


def main():
    if not os.access(browser_check.CHROMIUM, os.X_OK):
        print(f"SKIP: {browser_check.CHROMIUM} not installed")
        return 77
    failures = []
    with tempfile.TemporaryDirectory(prefix="ct-selftest-") as out, browser_check.Browser() as browser:
        good = os.path.join(out, "good.html")
        with open(good, "w") as f:
            f.write(GOOD)
        page = browser.check_report(good, EXPECTED)
        if [b["value"] for b in page.elements("p", "ct-bar")] != ["1", "2"]:
            failures.append(f"good page read back wrong: {page.plots}")
        for name, (html, phrase) in BROKEN.items():
            path = os.path.join(out, name + ".html")
            with open(path, "w") as f:
                f.write(html)
            try:
                browser.check_report(path, EXPECTED)
                failures.append(f"{name}: passed, should have failed")
            except CheckError as e:
                if phrase not in str(e):
                    failures.append(f"{name}: failed without {phrase!r}: {e}")
                else:
                    print(f"ok: {name} refused")
        # Every chart kind as the C++ writer draws it (golden_test's chart gallery).
        gallery = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "expected",
                               "chart-gallery.html")
        page = browser.check_report(gallery, {
            "gallery-bars": {"kind": "bar", "ct-bar": 9, "ct-ref": 1, "series": ["crc16", "xor", "spray"]},
            "gallery-lines": {"kind": "line", "ct-line": 2, "ct-point": 3, "series": ["ring", "bound"]},
            "gallery-histogram": {"kind": "histogram", "ct-bin": 6, "series": ["ftree", "updn"]},
            "gallery-heat": {"kind": "heat", "ct-cell": 8},
            "gallery-diagram": {"kind": "diagram", "ct-node": 3, "ct-edge": 2, "series": ["plane 0"]},
            "gallery-timeline": {"kind": "timeline", "ct-span": 3},
            "gallery-scatter": {"kind": "line", "ct-line": 0, "ct-point": 5, "series": ["on the Pareto front", "dominated"]},
        })
        idle = [c for c in page.elements("gallery-heat", "ct-cell") if c["value"] == "0"]
        if [(c["row"], c["column"]) for c in idle] != [("p0/leaf/0", "1")]:
            failures.append(f"gallery heat strip: idle cells {idle}")
        else:
            print("ok: chart gallery renders every chart kind")
    if failures:
        print("\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
