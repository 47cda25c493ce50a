#!/usr/bin/python3
"""`clustertwin plan --html` in headless Chromium (issue 14), against the same run's --json.

usage: plan_html_test.py CLUSTERTWIN SOURCE_DIR

For each example spec the plan is written once as JSON (-o) and once as HTML (--html), in one run
(one OutputSet commit). The page must load with no console error and no request besides the file
(browser_check.py), and what it shows must be the JSON's figures:

  * fabric diagram: one shape for all hosts plus one per (plane, tier) switch group, one line per
    (plane, tier) link bundle, and the frontend's tiers likewise; each shape's "N x MODEL" text and
    each line's "N x SPEED" text read back to the JSON's per-plane (frontend) switch and link counts;
  * scale-limit chart: 2 bars (2 and 3 tiers) per plane option, each bar's value the JSON's
    gpus_2_tiers / gpus_3_tiers, one legend entry per option, this design's series marked, a
    reference line at the JSON's GPU count;
  * the summary, tier, scale-limit, power, cost and bisection tables: every figure printed equals
    the JSON's (text parsed back with browser_check.number).

The 32,768-GPU example must stay under 10 MB; its load time in the browser is printed (measured,
not asserted: docs/performance.md).
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import expect, number  # noqa: E402

MAX_BYTES = 10 * 1024 * 1024
TIER = {1: "leaf", 2: "spine", 3: "core"}


def check_plan_page(browser, html, plan, want_command):
    planes = plan["per_plane"]
    frontend = plan["frontend"]["tiers"] if plan["frontend"] else []
    groups = sum(len(p["tiers"]) for p in planes) + len(frontend)
    limits = plan["scale_limits"]
    page = browser.check_report(html, {
        "fabric": {"kind": "diagram", "ct-node": 1 + groups, "ct-edge": groups,
                   "series": [f"plane {p['plane']}" for p in planes] + (["frontend"] if frontend else [])},
        "scale-limits": {"kind": "bar", "ct-bar": 2 * len(limits), "ct-ref": 1, "ct-legend-item": len(limits)},
    }, tables=["summary", "tiers", "scale-limits", "media", "power", "cost", "bisection", "hops", "failure-domains"])
    expect(page.command_line == want_command, f"command line shown: {page.command_line!r}, ran {want_command!r}")
    for plot_id, p in page.plots.items():
        expect(p["command"] == want_command, f"plot {plot_id}: command line {p['command']!r}")

    # Summary facts.
    facts = {row["quantity"]: row["value"] for row in page.table("summary")}
    for key, field in (("hosts", "hosts"), ("GPUs", "gpus"), ("backend NICs", "nics"), ("planes", "planes"),
                       ("tiers", "tiers"), ("links between planes", "cross_plane_links")):
        expect(number(facts[key]) == plan[field], f"summary {key}: page {facts[key]!r}, JSON {plan[field]}")

    # The diagram's visible texts against the per-plane tier figures.
    nodes = {e["node"]: e for e in page.elements("fabric", "ct-node")}
    edges = {(e["from"], e["to"]): e for e in page.elements("fabric", "ct-edge")}
    expect(nodes["hosts"]["texts"] == [f"{plan['hosts']:,} hosts", f"{plan['nics']:,} NICs, {plan['gpus']:,} GPUs"],
           f"hosts shape says {nodes['hosts']['texts']!r}")
    stacks = [(f"p{p['plane']}", p["tiers"]) for p in planes] + [("frontend", frontend)]
    for prefix, tiers in stacks:
        below = "hosts"
        for t in tiers:
            node_id = f"{prefix}-{TIER[t['tier']]}"
            expect(node_id in nodes, f"no shape {node_id}")
            shown = nodes[node_id]["texts"][1]  # "64 x q3400"
            expect(number(shown.split(" x ")[0]) == t["switches"], f"{node_id}: shows {shown!r}, JSON {t['switches']}")
            edge = edges.get((below, node_id))
            expect(edge is not None, f"no bundle {below} -> {node_id}")
            link_text = edge["texts"][0].split(" x ")
            expect(number(link_text[0]) == t["links"], f"{below}->{node_id}: {edge['text']!r}, JSON {t['links']}")
            if t["link_speed_bps"] is not None:
                expect(number(link_text[1]) == t["link_speed_bps"], f"{below}->{node_id} speed {edge['text']!r}")
            below = node_id

    # Tier table: one row per (plane, tier), then "all" when there are several planes.
    rows = page.table("tiers")
    want = [(str(p["plane"]), t) for p in planes for t in p["tiers"]]
    if len(planes) > 1:
        want += [("all", t) for t in plan["total"]["tiers"]]
    expect(len(rows) == len(want), f"tiers table: {len(rows)} rows, JSON {len(want)}")
    for row, (plane, t) in zip(rows, want):
        expect(row["plane"] == plane and row["tier"] == TIER[t["tier"]], f"tiers row {row}")
        for col, field in (("switches", "switches"), ("ports used", "ports_used"), ("ports free", "ports_free"),
                           ("links", "links"), ("down", "down_capacity_bps"), ("up", "up_capacity_bps")):
            got = number(row[col])
            expect(got == t[field] or (got is None and t[field] == 0), f"tiers plane {plane} {row['tier']} {col}: "
                   f"page {row[col]!r}, JSON {t[field]}")

    # Scale limits: bars and table.
    bars = {(b["series"].split(" plane")[0], b["category"]): b for b in page.elements("scale-limits", "ct-bar")}
    marked = [e["series"] for e in page.elements("scale-limits", "ct-legend-item") if "(this design)" in e["series"]]
    expect(len(marked) == sum(1 for s in limits if s["chosen"]), f"this design marked on {marked}")
    refs = page.elements("scale-limits", "ct-ref")
    # Issue 23 item 20: the line marks this design's reach (its option at its tier count), not its size.
    chosen = [s for s in limits if s["chosen"]]
    reach = chosen[0]["gpus_2_tiers" if plan["tiers"] <= 2 else "gpus_3_tiers"] if chosen else None
    expect(len(refs) == len(chosen) and (not chosen or float(refs[0]["value"]) == reach),
           f"reference line at {refs[0]['value'] if refs else None}, this design's reach {reach}")
    table = page.table("scale-limits")
    expect(len(table) == len(limits), "scale-limits rows")
    for s, row in zip(limits, table):
        for category, field in (("2 tiers", "gpus_2_tiers"), ("3 tiers", "gpus_3_tiers")):
            bar = bars[(str(s["planes"]), category)]
            expect(float(bar["value"]) == s[field], f"bar {s['planes']} planes {category}: {bar['value']} vs {s[field]}")
            expect(number(bar["text"].split(": ")[-1]) == s[field], f"bar tooltip {bar['text']!r}")
        expect(number(row["planes"]) == s["planes"], f"limits row {row}")
        if s["radix"] > 0:
            expect(number(row["radix"]) == s["radix"] and number(row["2 tiers reach"]) == s["gpus_2_tiers"]
                   and number(row["3 tiers reach"]) == s["gpus_3_tiers"], f"limits row {row} vs {s}")
        expect((row["note"] == "<- this design") == s["chosen"], f"limits note {row}")

    # Bills: every line's count and totals.
    for table_id, bill in (("power", plan["power_w"]), ("cost", plan["cost_usd"])):
        rows = page.table(table_id)
        expect(len(rows) == len(bill["lines"]), f"{table_id}: {len(rows)} rows, JSON {len(bill['lines'])}")
        unit = "W" if table_id == "power" else "USD"
        for row, line in zip(rows, bill["lines"]):
            expect(row["part"] == line["part"] and row["item"] == line["item"], f"{table_id} row {row}")
            expect(number(row["count"]) == line["count"], f"{table_id} {line['part']} count {row['count']}")
            for col, field in ((unit + " each", "unit"), (unit, "total")):
                got, json_v = number(row[col]), line[field]
                expect((got is None and json_v is None) or abs(got - json_v) <= 0.005 + 1e-9 * abs(json_v),
                       f"{table_id} {line['part']} {col}: page {row[col]!r}, JSON {json_v}")
        total_line = f"total: {bill['total']:,.0f} {unit}" if bill["total"] is not None else "total: unknown"
        if bill["total"] is not None and bill["total"] != int(bill["total"]):
            total_line = f"total: {bill['total']:,.2f} {unit}"
        expect(total_line in page.text, f"{table_id}: {total_line!r} not on the page")

    # Bisection per plane and in all.
    rows = page.table("bisection")
    want = [(str(p["plane"]), p["bisection_bps"], p["half_injection_bps"]) for p in planes]
    if len(planes) > 1:
        want.append(("all", plan["total"]["bisection_bps"], plan["total"]["half_injection_bps"]))
    expect(len(rows) == len(want), "bisection rows")
    for row, (plane, b, half) in zip(rows, want):
        expect(row["plane"] == plane, f"bisection row {row}")
        for col, v in (("bisection", b), ("half's NIC capacity", half)):
            got = number(row[col])
            # Printed to three significant digits or better.
            expect(got is not None and abs(got - v) <= 0.005 * v, f"bisection {plane} {col}: {row[col]!r}, JSON {v}")
    return page


def check_outputs_together(binary, src, out):
    """--html is one of the run's outputs: an unwritable page means no -o file either (exit 1), and
    --html - puts the page on stdout with the text report in -o FILE."""
    env = dict(os.environ, CLUSTERTWIN_CATALOG=os.path.join(src, "catalog"))
    text = os.path.join(out, "atomic.txt")
    r = subprocess.run([binary, "plan", "examples/lab-32.yaml", "-o", text, "--html",
                        os.path.join(out, "no-such-folder", "p.html")], cwd=src, env=env, capture_output=True, text=True)
    expect(r.returncode == 1 and "no-such-folder" in r.stderr, f"unwritable --html: exit {r.returncode}, {r.stderr!r}")
    expect(not os.path.exists(text), "the -o file was written although the --html file failed")
    r = subprocess.run([binary, "plan", "examples/lab-32.yaml", "-o", text, "--html", "-"], cwd=src, env=env,
                       capture_output=True, text=True)
    expect(r.returncode == 0 and r.stdout.startswith("<!DOCTYPE html>\n"), f"--html -: exit {r.returncode}")
    with open(text) as f:
        expect(f.read().startswith("plan: lab-32\n"), "--html - with -o FILE: the text report is not in FILE")
    print("ok: --html is committed with -o, all or nothing; --html - owns stdout")


def main():
    binary, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not os.access(browser_check.CHROMIUM, os.X_OK):
        print(f"SKIP: {browser_check.CHROMIUM} not installed (scripts/setup.sh installs Debian chromium)")
        return 77
    with tempfile.TemporaryDirectory(prefix="ct-plan-html-") as out, browser_check.Browser() as browser:
        check_outputs_together(binary, src, out)
        for spec in ("examples/lab-32.yaml", "examples/b300-dual-plane.yaml", "examples/b300-32k.yaml"):
            name = os.path.splitext(os.path.basename(spec))[0]
            html, plan, command = browser_check.write_report(binary, src, ["plan", spec], out, name)
            size = os.path.getsize(html)
            page = check_plan_page(browser, html, plan, command)
            print(f"ok: {spec}: {plan['gpus']:,} GPUs, {len(page.plots)} plots, {len(page.tables)} tables, "
                  f"{size:,} bytes, load event ended at {page.load_ms:.0f} ms")
            expect(size < MAX_BYTES, f"{html}: {size:,} bytes, over the 10 MB bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
