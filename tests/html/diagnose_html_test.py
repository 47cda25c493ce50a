#!/usr/bin/python3
"""`diagnose --html` in headless Chromium (issue 14), against the same run's --json and text.

usage: diagnose_html_test.py CLUSTERTWIN SOURCE_DIR

Two diagnoses of the golden inputs (tests/golden/diagnose/), each run once with
`--json -o X.json --html X.html` (one diagnosis, both reports, one OutputSet commit):

  polarized   the 3-tier lab (examples/lab/fat-tree-4.yaml) with the captured counters and flows:
              4 groups with traffic, 3 imbalanced (bad luck at p0/pod0/leaf/1, polarization at both
              pod-0 spines), each a 2-member group with its twin at 0 Gb/s;
  degraded    examples/lab/leaf-spine-4.yaml at 40/40/40/20 Gb/s with flows 1/1/1/1: one 4-member
              group, a degraded member and no idle one.

Each page must load with no console error and no request besides the file, render a screenshot,
and hold: the heat strip with one row per group (label "<switch> <up|down>") whose cells are the
JSON members' rates in Gb/s, in order; for every imbalanced group i a bar chart "group-i-members"
with one bar per member (= its rate), the group mean as a reference line and, beside an idle
member (its bar at 0, named "(IDLE)"), the busiest as one too, named "(busiest)"; a degraded member
named "(DEGRADED)"; its facts, members
table and witnesses equal to the JSON's; the groups, links and hosts tables equal to the JSON's
(to the text report's two decimals); the cause, the reasons the dashboards stayed green, the fix and
the prediction as the JSON words them; and the text report (the same run without --json)
verbatim. Numbers printed with six significant digits: relative 5e-6; data-* values: 1e-12.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import expect, close, count, shown, facts  # noqa: E402


def axis_scale(label):
    """The b/s a chart's unit stands for, from its axis label ("Mb/s leaving the switch" -> 1e6)."""
    unit = label.split()[0]
    expect(unit.endswith("b/s"), f"axis label {label!r} names no rate unit")
    return {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[unit[:-3]]

G = "tests/golden/diagnose/"
POLARIZED = ["diagnose", "examples/lab/fat-tree-4.yaml", "--counters", G + "lab-before.prom", G + "lab-after.prom",
             "--map", G + "lab-map.csv", "--flows", G + "lab-flows.csv"]
DEGRADED = ["diagnose", "examples/lab/leaf-spine-4.yaml", "--counters", G + "degraded-t0.prom", G + "degraded-t1.prom",
            "--map", G + "degraded-map.csv", "--flows", G + "degraded-flows.csv"]


def rounded(text, want, digits, what):
    """A cell of the text report's tables, printed with `digits` decimals."""
    got = float(text.rstrip("%"))
    expect(abs(got - want) <= 0.5 * 10 ** -digits + 1e-9, f"{what}: page {text!r}, JSON {want}")


def far_end(group, member):
    a, b = member["link"].split(" -- ")
    return b if a == group["switch"] else a


def check(browser, html, j, text):
    groups = j["groups"]
    bad = [(i, g) for i, g in enumerate(groups) if g["imbalanced"]]
    plots = {"group-members": {"kind": "heat", "ct-cell": sum(len(g["members"]) for g in groups)}}
    tables = ["summary", "groups", "links"] + (["hosts"] if j["hosts"] else [])
    for i, g in bad:
        plots[f"group-{i}-members"] = {"kind": "bar", "ct-bar": len(g["members"]), "ct-ref": 2 if g["idle"] else 1,
                                       "series": ["switch port counters"]}
        tables += [f"group-{i}", f"group-{i}-members", f"group-{i}-witnesses"]
    page = browser.check_report(html, plots, tables)

    f = facts(page, "summary")
    for key, want in (("scrapes", j["scrapes"]), ("mapped directed links", len(j["links"])),
                      ("host ports", len(j["hosts"])), ("known flows", j["flows"]),
                      ("ECMP groups with traffic", len(groups)), ("imbalanced groups", len(bad)),
                      ("unmapped series", len(j["unmapped"]))):
        expect(count(f[key]) == want, f"summary {key}: page {f[key]}, JSON {want}")

    # Heat strip: a row per group, its cells the members' rates in order.
    rows = {}
    scale = axis_scale(page.plots["group-members"]["y_label"])
    for cell in page.elements("group-members", "ct-cell"):
        rows.setdefault(cell["row"], []).append((int(cell["column"]), float(cell["value"])))
    expect(len(rows) == len(groups), f"heat rows {sorted(rows)}, JSON {len(groups)} groups")
    for g in groups:
        label = f"{g['switch']} {g['direction']}"
        cells = [v for _, v in sorted(rows[label])]
        want = [m["bps"] / scale for m in g["members"]]
        expect(len(cells) == len(want) and all(close(a, b, 1e-12) for a, b in zip(cells, want)),
               f"heat row {label}: {cells}, JSON {want}")

    for i, g in bad:
        members = g["members"]
        bars = page.elements(f"group-{i}-members", "ct-bar")
        total = sum(m["bps"] for m in members)
        hot = max(range(len(members)), key=lambda k: (members[k]["bps"], -k))
        scale = axis_scale(page.plots[f"group-{i}-members"]["y_label"])
        for k, (bar, m) in enumerate(zip(bars, members)):
            expect(close(float(bar["value"]), m["bps"] / scale, 1e-12), f"group {i} bar {k}: {bar}, JSON {m}")
            end = far_end(g, m).split("/")
            expect(bar["category"].startswith("/".join(end[-2:])), f"group {i} bar {k} named {bar['category']!r}")
            if len(members) <= 4:
                expect(("(IDLE)" in bar["category"]) == m["idle"], f"group {i}: {bar['category']!r} idle={m['idle']}")
                expect(("(DEGRADED)" in bar["category"]) == m.get("degraded", False), f"group {i}: {bar['category']!r}")
                busiest = g["idle"] > 0 and m["bps"] == g["max_bps"]
                expect(("(busiest)" in bar["category"]) == busiest, f"group {i}: {bar['category']!r} busiest={busiest}")
            if m["idle"]:
                expect(float(bar["value"]) < 0.05 * g["max_bps"] / scale, f"group {i}: idle bar {bar}")
        refs = sorted(float(r["value"]) for r in page.elements(f"group-{i}-members", "ct-ref"))
        want = sorted([g["mean_bps"] / scale] + ([g["max_bps"] / scale] if g["idle"] else []))
        expect(len(refs) == len(want), f"group {i} references {refs}")
        expect(all(close(a, b, 1e-12) for a, b in zip(refs, want)), f"group {i} references {refs}, JSON {want}")

        idle = [far_end(g, m) for m in members if m["idle"]]
        headline = f"{far_end(g, members[hot])} carries " if idle else \
            "No member is idle, but " + ", ".join(far_end(g, m) for m in members if m.get("degraded")) + " at "
        expect(headline in page.text and all(n in page.text for n in idle), f"group {i}: no headline {headline!r}")
        f = facts(page, f"group-{i}")
        expect(f["cause"] == g["cause"], f"group {i} cause {f['cause']!r}, JSON {g['cause']!r}")
        expect(f["busiest member"] == far_end(g, members[hot]), f"group {i} busiest {f['busiest member']!r}")
        shown(f["busiest member's rate"], g["max_bps"], f"group {i} max")
        shown(f["group mean"], g["mean_bps"], f"group {i} mean")
        shown(f["busiest member's share of the group's traffic"], members[hot]["bps"] / total, f"group {i} share")
        shown(f["Jain's fairness"], g["jain"], f"group {i} Jain")
        expect(count(f["idle members"]) == g["idle"], f"group {i} idle")
        # Issue 23 item 18: the mean's label is a legend item, off the bars, and rounded.
        expect(f["group mean"] in page.text, f"group {i}: the mean {f['group mean']!r} is not what the page shows")
        if g["collision_probability"] is not None:
            shown(f["P(any collision)"], g["collision_probability"], f"group {i} P(any collision)")
        else:
            expect("P(any collision)" not in f, f"group {i}: a probability the JSON does not have")

        rows = page.table(f"group-{i}-members")
        expect(len(rows) == len(members), f"group {i} members table {rows}")
        for row, m in zip(rows, members):
            expect(row["member"] == far_end(g, m), f"group {i} member {row['member']!r}")
            rounded(row["Gb/s"], m["bps"] / 1e9, 2, f"group {i} {row['member']} Gb/s")
            rounded(row["util"], 100 * m["utilization"], 0, f"group {i} {row['member']} util")
            expect(row["model flows"] == ("-" if m["model_flows"] is None else str(m["model_flows"])), "model flows")
            expect(row["state"].startswith("IDLE") == m["idle"], f"group {i} {row['member']} state {row['state']!r}")
        rows = page.table(f"group-{i}-witnesses")
        expect([(r["witness"], r["state"], r["evidence"]) for r in rows] ==
               [(w["name"], w["state"], w["evidence"]) for w in g["witnesses"]], f"group {i} witnesses {rows}")
        for line in [f"Cause: {g['cause']}: {g['explanation']}", "Fix: " + g["fix"]] + \
                    ["- " + s for s in g["why_green"]] + (["Predicted: " + g["predicted"]] if g["predicted"] else []):
            expect(line in page.text, f"group {i}: {line!r} not on the page")

    rows = page.table("groups")
    expect(len(rows) == len(groups), "groups table")
    for row, g in zip(rows, groups):
        expect(row["switch"] == g["switch"] and row["dir"] == g["direction"] and
               int(row["members"]) == len(g["members"]) and int(row["idle"]) == g["idle"], f"groups row {row}")
        rounded(row["max Gb/s"], g["max_bps"] / 1e9, 2, "max")
        rounded(row["mean Gb/s"], g["mean_bps"] / 1e9, 2, "mean")
        rounded(row["Jain"], g["jain"], 3, "Jain")
        expect(row["cause"] == (g["cause"] if g["imbalanced"] else "balanced"), f"groups row {row}")
    busy = [r for r in j["links"] if r["bps"] >= 1e6]
    rows = page.table("links")
    expect(len(rows) == len(busy), f"links table: {len(rows)} rows, JSON {len(busy)} links >= 1 Mb/s")
    for row, r in zip(rows, busy):
        a, b = r["link"].split(" -- ")
        expect(row["link direction"] == (f"{a} -> {b}" if r["direction"] == "up" else f"{b} -> {a}"), f"link {row}")
        rounded(row["Gb/s"], r["bps"] / 1e9, 2, row["link direction"])
        rounded(row["util"], 100 * r["utilization"], 0, row["link direction"])
        expect(row["counter"] == r["counter"], f"link {row}")
    if j["hosts"]:
        rows = page.table("hosts")
        expect([r["host port"] for r in rows] == [h["port"] for h in j["hosts"]], "hosts table")
        for row, h in zip(rows, j["hosts"]):
            for col, key in (("netdev Gb/s", "netdev_bps"), ("RDMA Gb/s", "rdma_bps")):
                if h[key] is None:
                    expect(row[col] == "-", f"host {row}")
                else:
                    rounded(row[col], h[key] / 1e9, 2, f"{h['port']} {col}")
    expect(text.rstrip("\n") in page.text, "the text report is not on the page verbatim")
    return page


def main():
    return browser_check.run_pages((("polarized", POLARIZED, check), ("degraded", DEGRADED, check)),
                                   "ct-diagnose-page-", text_report=True)



if __name__ == "__main__":
    sys.exit(main())
