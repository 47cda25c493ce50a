#!/usr/bin/python3
"""`sweep --html` in headless Chromium (issue 27), against the same run's --json.

usage: sweep_html_test.py CLUSTERTWIN SOURCE_DIR

Two sweeps, each run once with `--json -o X.json --html X.html`:

  shapes      examples/sweeps/lab-32-shapes.yaml: a variant axis (two or three tiers) x node count,
              plan, simulate and hash studies, three objectives (three scatter planes);
  dual-plane  examples/sweeps/dual-plane.yaml: zipped axes (planes with port speed, tiers with
              oversubscription), two objectives (one plane).

Each page must load with no console error and no request besides the file, render a screenshot,
with no overlapping text box and a visible mark in every chart (browser_check.py), and hold:
  * a scatter plot per pair of objectives with one mark per feasible point (named by its tooltip),
    at the JSON's means (data-x, data-y exact), full when the JSON puts the point on the front,
    faded (data-faded) when not: no lines between points;
  * the summary facts equal to the JSON's counts; the front table's rows = the JSON's front;
  * a table per axis group: one row per value, and each row's matched points and means worked out
    here from the JSON's points (a point matched with the point at the group's first value that
    has the same values on every other axis).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import expect, close, count, quantity, value, facts  # noqa: E402

SHAPES = ["sweep", "examples/sweeps/lab-32-shapes.yaml", "--threads", "2"]
DUAL = ["sweep", "examples/sweeps/dual-plane.yaml", "--threads", "2"]


def means(p, metric):
    m = p.get("metrics", {}).get(metric)
    return None if m is None else m["mean"]


def check_scatter(page, j, names, a, b):
    plot = f"front-{a}-{b}"
    xs, ys = names[a], names[b]
    want = [p for p in j["points"] if means(p, xs) is not None and means(p, ys) is not None]
    points = page.elements(plot, "ct-point")
    expect(len(points) == len(want), f"{plot}: {len(points)} points, JSON {len(want)}")
    expect(not page.elements(plot, "ct-line"), f"{plot}: a scatter plot with lines")
    for p in want:
        mine = [e for e in points if e["text"].startswith(f"point {p['point']}:")]
        expect(len(mine) == 1, f"{plot}: {len(mine)} marks for point {p['point']}")
        value(mine[0], means(p, xs), f"{plot} point {p['point']}", "x")
        value(mine[0], means(p, ys), f"{plot} point {p['point']}", "y")
        faded = mine[0].get("faded") == "1"
        expect(faded == (not p["on_front"]), f"{plot}: point {p['point']} on_front {p['on_front']}, faded {faded}")


def groups_of(sweep_axes, zips):
    """Axis groups as the page makes them: zipped axes together, in file order."""
    out = []
    for a in sweep_axes:
        zipped = [z for z in zips if a in z]
        if zipped and zipped[0][0] != a:
            continue
        out.append(zipped[0] if zipped else [a])
    return out


def check_axis_table(page, j, names, group, k):
    rows = page.table(f"axis-{k}")
    lead = group[0]
    values = []
    for p in j["points"]:
        v = " + ".join(p["axes"][a] for a in group)
        if v not in values:
            values.append(v)
    expect([r[" + ".join(group)] for r in rows] == values, f"axis-{k}: rows {rows}")
    ok = [p for p in j["points"] if p["status"] == "ok"]
    key = lambda p: tuple(sorted((a, v) for a, v in p["axes"].items() if a not in group))  # noqa: E731
    reference = {key(p): p for p in ok if p["axes"][lead] == values[0].split(" + ")[0]}
    for row, v in zip(rows, values):
        pairs = [(p, reference[key(p)]) for p in ok if " + ".join(p["axes"][a] for a in group) == v and key(p) in reference]
        expect(count(row["matched points"]) == len(pairs), f"axis-{k} {v}: matched {row['matched points']}, {len(pairs)}")
        for name in names:
            got = [means(p, name) for p, r in pairs if means(p, name) is not None and means(r, name) is not None]
            if not got:
                expect(row[name] == "-", f"axis-{k} {v} {name}: {row[name]}")
                continue
            want = sum(got) / len(got)
            expect(close(quantity(row[name]), want, 5e-3) or abs(want) < 1e-12, f"axis-{k} {v} {name}: {row[name]}, {want}")


def check(sweep_axes, zips):
    def run(browser, html, report):
        names = [o["metric"] for o in report["objectives"]]
        pairs = [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
        plots = {f"front-{a}-{b}": {"kind": "line", "series": ["on the Pareto front", "dominated"]} for a, b in pairs}
        page = browser.check_report(html, plots, tables=["summary", "front"])
        f = facts(page, "summary")
        statuses = [p["status"] for p in report["points"]]
        for key, want in (("points", len(statuses)), ("feasible", statuses.count("ok")),
                          ("infeasible", statuses.count("infeasible")), ("failed", statuses.count("failed")),
                          ("seeds per point", len(report["seeds"])), ("on the Pareto front", len(report["front"]))):
            expect(count(f[key]) == want, f"summary {key}: page {f[key]}, JSON {want}")
        expect([int(r["point"]) for r in page.table("front")] == report["front"], "front table")
        for a, b in pairs:
            check_scatter(page, report, names, a, b)
        for k, group in enumerate(groups_of(sweep_axes, zips)):
            check_axis_table(page, report, names, group, k)
        return page
    return run


def main():
    zips = [["backend.planes", "backend.port_speed"], ["backend.tiers", "backend.oversubscription"]]
    cases = [("shapes", SHAPES, check(["shape", "nodes.count"], [])),
             ("dual-plane", DUAL, check([a for z in zips for a in z], zips))]
    return browser_check.run_pages(cases, "ct-sweep-html-")


if __name__ == "__main__":
    sys.exit(main())
