#!/usr/bin/python3
"""`hash`, `simulate`, `reliability` and `ib route --html` in headless Chromium (issue 14), each
against the same run's --json.

usage: command_pages_test.py CLUSTERTWIN SOURCE_DIR

Each command runs once on a small example with `--json -o X.json --html X.html`: one study, both
reports, one OutputSet commit. One Chromium (browser_check.py) opens the four pages; each must
load with no console error and no request besides the file, render a screenshot, and hold its
plots with the series and counts the JSON implies. Then every number the page shows (facts tables,
and the bars, cells, bins and lines of the plots) is read back from the browser and compared with
the JSON's:

  hash         a heat-strip row per ECMP group the flows entered, its cells = the group's members,
               their sum = the group's flows, their max = its max, white cells = its idle links; the
               busiest-uplink bars = the Monte Carlo histogram and the closed form's distribution
               (in %); one bar per applicable scheme = its busiest link and slowest flow;
  simulate     a timeline row per operation (4 points per iteration), one utilization line per
               busiest link of the JSON's series (the first 4; bins + 1 points), busbw bars = the JSON's busbw
               and S / bound x bus factor (bus factor = busbw / algbw); a packet run (issue 26 item 2)
               also one queue-occupancy line per hottest queue of the JSON's packet.queue_series, named
               as the JSON names it, its bins + 1 points, each drawn in its own width and dashes, and
               its summary's events, packets delivered and in flight, drops, credit stall and
               deadlock = the JSON's packet object (no instants or re-solves: it solves nothing), and
               the deepest-queue bars = its packet.queues (peak and mean in KiB, credit stall in us);
               a RoCE run with DCQCN (one priority, and two) also one ECN-mark bar per port (and
               priority) of the JSON's packet.dcqcn.most_marks, in its order, and its ECN marks fact;
  reliability  P(k down) bars = each modelled class's p_k_down, the plane bars = the closed-form
               and Monte Carlo hours lost, the interruption histogram = interruption_share (in %),
               the spread bars = the lost-hours percentiles;
  ib route     the uplink histogram of each rank holds its JSON uplinks with its min, max and mean;
               the hop bars add up to the pairs delivered, healthy and after the failure.

Numbers printed on the page carry six significant digits (relative 5e-6 allowed); data-* values
are the doubles themselves (relative 1e-12 allowed: the page may scale by 100 or 1e-9).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import expect, close, count, shown, value, facts  # noqa: E402

HASH = ["hash", "examples/lab-32-roce.yaml", "--elephants", "4", "--trials", "500", "--seed", "3", "--compare",
        "--threads", "2"]
SIMULATE = ["simulate", "examples/lab-32.yaml", "--scenario", "examples/scenarios/mice-lab32.yaml"]
# Three operations of one flow each (issue 23 item 15: a one-point CDF must still be drawn).
SIMULATE_ONE_FLOW = ["simulate", "examples/lab-32.yaml", "--scenario", "examples/scenarios/straggler-lab32.yaml"]
# The packet engine on an incast: its hottest queues over time (issue 26 item 2).
SIMULATE_PACKET = ["simulate", "examples/lab-32.yaml", "--scenario", "examples/scenarios/incast-lab32.yaml", "--engine",
                   "packet", "--switch-latency", "300ns", "--switch-buffer", "64KiB", "--forwarding", "cut-through"]
# RoCE v2 with DCQCN: the ports' ECN marks beside the deepest queues (issue 26 review item 6), with one
# priority and with two (a flow table whose flows use priorities 0 and 1).
SIMULATE_ROCE = ["simulate", "examples/lab-32-roce.yaml", "--collective", "all-to-all", "--bytes", "16MiB", "--gpus",
                 "[0, 8, 16, 24, 32, 40, 48, 56]", "--engine", "packet", "--switch-latency", "300ns", "--switch-buffer",
                 "1MiB", "--forwarding", "cut-through", "--top", "3"]
SIMULATE_ROCE_PRIORITIES = ["simulate", "examples/lab-32-roce.yaml", "--flows", "tests/golden/flows/roce-two-priorities.csv",
                            "--engine", "packet", "--switch-latency", "300ns", "--switch-buffer", "1MiB", "--forwarding",
                            "cut-through", "--top", "3", "--vls", "2"]
RELIABILITY = ["reliability", "examples/b300-dual-plane.yaml", "--repair-hours", "24", "--trials", "100", "--threads", "2"]
IB_ROUTE = ["ib", "route", "examples/lab-32.yaml", "--engine", "updn", "--fail", "p0/leaf/0,p0/spine/0"]


def check_hash(browser, html, j):
    groups = j["loads"]["groups"]
    mc = j["monte_carlo"]
    busiest = mc["busiest_first_tier_uplink"]
    has_closed = "closed_form" in busiest[0]
    applicable = [s for s in j["comparison"]["schemes"] if s["applicable"]]
    page = browser.check_report(html, {
        "busiest-uplink": {"kind": "bar", "ct-bar": len(busiest) * (2 if has_closed else 1)},
        "schemes-busiest": {"kind": "bar", "ct-bar": len(applicable)},
        "schemes-slowest": {"kind": "bar", "ct-bar": len(applicable)},
    }, tables=["summary", "monte-carlo"])
    f = facts(page, "summary")
    expect(count(f["flows"]) == len(j["flows"]), f"flows {f['flows']}")
    expect(count(f["flows with a path"]) == sum(1 for x in j["flows"] if x["reached"]), "flows with a path")
    expect(count(f["collisions"]) == len(j["collisions"]), f"collisions {f['collisions']}")
    up = j["loads"]["uplinks"]
    expect(count(f["uplinks in play"]) == up["links"] and count(f["idle uplinks"]) == up["idle"], f"uplinks {f}")
    shown(f["busiest uplink (flows)"], up["busiest"], "busiest uplink")
    shown(f["slowest flow"], j["loads"]["slowest_bps"], "slowest flow")
    shown(f["mean flow"], j["loads"]["mean_bps"], "mean flow")

    # Heat strips: every entered group is one row, whatever strip (tier, direction) holds it.
    rows = {}
    for plot_id, plot in page.plots.items():
        if not plot_id.startswith("loads-tier"):
            continue
        expect(plot["kind"] == "heat" and plot["title"] and plot["command"], f"{plot_id}: {plot}")
        for cell in plot["elements"]["ct-cell"]:
            rows.setdefault(cell["row"], []).append(float(cell["value"]))
    expect(len(rows) == len(groups), f"heat rows {len(rows)}, JSON groups {len(groups)}")
    for g in groups:
        label = f"{g['switch']} {g['kind']} ({g['members']} links)"
        expect(label in rows, f"no heat row {label!r}; rows {sorted(rows)}")
        cells = rows[label]
        expect(len(cells) == g["members"], f"{label}: {len(cells)} cells")
        expect(close(sum(cells), g["flows"], 1e-12) and max(cells) == g["max"], f"{label}: cells {cells} vs {g}")
        expect(sum(1 for c in cells if c == 0) == g["idle"], f"{label}: idle cells {cells} vs {g['idle']}")

    # Busiest first-tier uplink: % of trials per load, beside the closed form.
    bars = page.elements("busiest-uplink", "ct-bar")
    for bar in bars:
        row = busiest[int(bar["category"])]
        want = row["simulated"] if bar["series"].startswith("Monte Carlo") else row["closed_form"]
        value(bar, 100 * want, f"busiest uplink = {bar['category']} ({bar['series']})")
    m = facts(page, "monte-carlo")
    shown(m["P(collision on first-tier uplinks), simulated"], mc["p_first_collision"]["simulated"], "P(first)")
    shown(m["P(collision on first-tier uplinks), closed form"], mc["p_first_collision"]["closed_form"], "P(first) cf")
    shown(m["P(collision anywhere), simulated"], mc["p_any_collision"]["simulated"], "P(any)")
    shown(m["E[idle first-tier uplinks], simulated"], mc["idle_first_tier_uplinks"]["simulated"], "idle")
    shown(m["E[idle first-tier uplinks], closed form"], mc["idle_first_tier_uplinks"]["closed_form"], "idle cf")
    shown(m["E[slowest flow], simulated"], mc["slowest_flow_bps"]["simulated"], "slowest")

    # Schemes: one bar each, in the JSON's order.
    for plot_id, field, scale in (("schemes-busiest", "busiest", 1), ("schemes-slowest", "slowest_bps", 1e-9)):
        bars = page.elements(plot_id, "ct-bar")
        expect([b["category"] for b in bars] == [s["scheme"] for s in applicable], f"{plot_id}: {bars}")
        for b, s in zip(bars, applicable):
            value(b, s[field] * scale, f"{plot_id} {s['scheme']}")
    return page


def check_simulate(browser, html, j):
    ops = j["operations"]
    with_iterations = [o for o in ops if any(it["start_s"] is not None for it in o["iterations"])]
    series = j["series"]["links"][:4]
    collectives = [o for o in ops if o["kind"] == "collective" and o["busbw_GBps"] is not None]
    plots = {
        # Issue 23 item 15: a Gantt bar per operation and iteration.
        "timeline": {"kind": "timeline", "ct-span": sum(1 for o in ops for it in o["iterations"] if it["start_s"] is not None)},
        "link-utilization": {"kind": "line", "ct-line": len(series), "series": [s["name"] for s in series]},
    }
    if collectives:
        plots["busbw"] = {"kind": "bar", "ct-bar": 2 * len(collectives)}
    page = browser.check_report(html, plots, tables=["summary", "operations"])
    f = facts(page, "summary")
    shown(f["makespan"], j["makespan_s"], "makespan")
    expect(f["makespan"].endswith(" ms") or f["makespan"].endswith(" s") or f["makespan"].endswith("\u00b5s"),
           f"makespan {f['makespan']!r} with its unit")
    # The engine's own work: the flow engine's instants and re-solves; a packet run's are checked
    # by check_simulate_packet.
    keys = (("flows", "flows"), ("flows rerouted", "rerouted_flows"))
    if "packet" not in j:
        keys += (("instants", "instants"), ("re-solves", "solves"))
    else:
        expect("re-solves" not in f and "instants" not in f, f"a packet run's summary speaks of re-solves: {f}")
    for key, field in keys:
        expect(count(f[key]) == j[field], f"{key}: page {f[key]}, JSON {j[field]}")
    shown(f["share of workers' time on the network"], j["network_share"], "network share")
    shown(f["share lost to the slowest path"], j["waiting_share"], "waiting share")
    o = facts(page, "operations")
    for op in ops:
        if op["time_s"] is not None:
            shown(o[op["name"] + ": time"], op["time_s"], op["name"] + " time")
        if op["busbw_GBps"] is not None:
            shown(o[op["name"] + ": busbw"], op["busbw_GBps"] * 1e9, op["name"] + " busbw")
    spans = page.elements("timeline", "ct-span")
    for op in with_iterations:
        mine = [s for s in spans if s["row"] == op["name"]]
        started = [it for it in op["iterations"] if it["start_s"] is not None]
        expect(len(mine) == len(started), f"timeline {op['name']}: {len(mine)} bars, {len(started)} iterations")
        for bar, it in zip(mine, started):
            value(bar, it["start_s"] * 1e3, f"timeline {op['name']} start", key="start")
            if it["end_s"] is not None:
                value(bar, it["end_s"] * 1e3, f"timeline {op['name']} end", key="end")
    lines = page.elements("link-utilization", "ct-line")
    for line, s in zip(lines, series):
        expect(int(line["points"]) == len(s["utilization"]) + 1, f"utilization {s['name']}: {line['points']} points")
    # Issue 23 item 15: lines that may lie on one another each have their own width and dashes.
    styles = [(line["stroke_width"], line["dash"]) for line in lines]
    expect(len(set(styles)) == len(styles), f"hottest links drawn alike: {styles}")
    cdf = page.plots.get("completion-cdf")
    expect(cdf is not None and cdf["kind"] == "line" and len(cdf["elements"]["ct-line"]) >= 1, "completion CDF")
    for line in cdf["elements"]["ct-line"]:
        expect(2 <= int(line["points"]) <= 257, f"CDF {line['series']}: {line['points']} points")
    if collectives:
        bars = page.elements("busbw", "ct-bar")
        for op in collectives:
            mine = {b["series"]: b for b in bars if b["category"] == op["name"]}
            value(mine["simulated"], op["busbw_GBps"], op["name"] + " busbw")
            value(mine["bound (no collisions)"], op["busbw_GBps"] * op["time_s"] / op["bound_s"], op["name"] + " bound")
    return page


def check_simulate_packet(browser, html, j):
    page = check_simulate(browser, html, j)
    # The packet engine's work and what only it measures (issue 26 item 2), as its JSON gives them.
    p = j["packet"]
    f = facts(page, "summary")
    for key, field in (("events", "events"), ("packets delivered", "packets_delivered"),
                       ("packets in flight, at most", "peak_packets"), ("drops", "drops")):
        expect(count(f[key]) == p[field], f"{key}: page {f[key]}, JSON {p[field]}")
    shown(f["credit stall, summed over ports"], p["credit_stall_s"], "credit stall")
    expect(f["deadlock"] == ("none" if not p["deadlock"] else f"a credit loop of {len(p['deadlock'])} channels"),
           f"deadlock: page {f['deadlock']!r}, JSON {p['deadlock']}")
    queues = j["packet"]["queue_series"]["queues"]
    expect(len(queues) >= 2, f"an incast has hot queues: {len(queues)}")
    plot = page.plots.get("queue-occupancy")
    expect(plot is not None and plot["kind"] == "line", "queue-occupancy plot")
    names = [e["series"] for e in plot["elements"]["ct-legend-item"]]
    expect(names == [q["name"] for q in queues], f"queue legend {names}")
    lines = plot["elements"]["ct-line"]
    expect(len(lines) == len(queues), f"{len(lines)} queue lines, {len(queues)} queues")
    for line, q in zip(lines, queues):
        expect(int(line["points"]) == len(q["mean_bytes"]) + 1, f"queue {q['name']}: {line['points']} points")
    styles = [(line["stroke_width"], line["dash"]) for line in lines]
    expect(len(set(styles)) == len(styles), f"hottest queues drawn alike: {styles}")
    # The deepest queues (the JSON's packet.queues): peak and mean in KiB, credit stall in us.
    deepest = p["queues"]
    depth = page.elements("queue-depth", "ct-bar")
    stopped = page.elements("queue-stopped", "ct-bar")
    expect(len(depth) == 2 * len(deepest) and len(stopped) == len(deepest),
           f"{len(depth)} depth and {len(stopped)} stop bars, {len(deepest)} queues")
    for q in deepest:
        mine = {b["series"]: b for b in depth if b["category"] == q["name"]}
        value(mine["peak"], q["peak_queue_bytes"] / 1024, q["name"] + " peak")
        value(mine["time-weighted mean"], q["mean_queue_bytes"] / 1024, q["name"] + " mean")
        stop = [b for b in stopped if b["category"] == q["name"]]
        expect(len(stop) == 1, f"{q['name']}: {len(stop)} stop bars")
        value(stop[0], q["credit_stall_s"] * 1e6, q["name"] + " credit stall")
    return page


def check_simulate_ecn(browser, html, j):
    page = check_simulate(browser, html, j)
    # The ECN marks per port (issue 26 review item 6): one bar per port of the JSON's dcqcn.most_marks,
    # in its order, per priority when the run has more than one, beside the deepest queues' charts.
    p = j["packet"]
    ports = p["dcqcn"]["most_marks"]
    expect(len(ports) >= 1, "an all-to-all under DCQCN marks at some port")
    plot = page.plots.get("ecn-marks")
    expect(plot is not None and plot["kind"] == "bar", "ecn-marks plot")
    expect(page.plots.get("queue-depth") is not None, "the deepest-queue chart beside it")
    bars = page.elements("ecn-marks", "ct-bar")
    vls = p["vls"]
    expect(len(bars) == len(ports) * vls, f"{len(bars)} ECN bars, {len(ports)} ports x {vls} priorities")
    categories = []
    for b in bars:
        if b["category"] not in categories:
            categories.append(b["category"])
    expect(categories == [q["name"] for q in ports], f"ECN bars' ports {categories}")
    for q in ports:
        mine = {b["series"]: b for b in bars if b["category"] == q["name"]}
        if vls == 1:
            value(mine["ECN marks"], q["ecn_marks"], q["name"] + " ECN marks")
            continue
        for k, marks in enumerate(q["ecn_marks_by_priority"]):
            value(mine[f"priority {k}"], marks, f"{q['name']} priority {k}")
    f = facts(page, "summary")
    expect(count(f["ECN marks"]) == p["ecn_marks"], f"ECN marks: page {f['ECN marks']}, JSON {p['ecn_marks']}")
    return page


def check_reliability(browser, html, j):
    d = j["design"]
    classes = [c for c in d["classes"] if "steady_state" in c]
    feasible = [p for p in j["planes"] if "infeasible" not in p]
    page = browser.check_report(html, {
        "p-k-down": {"kind": "bar", "ct-bar": 4 * len(classes)},
        "planes-lost-hours": {"kind": "bar", "ct-bar": 2 * len(feasible)},
        "interruptions": {"kind": "histogram", "ct-bin": sum(len(p["monte_carlo"]["interruption_share"])
                                                             for p in feasible),
                          "series": [f"{p['planes']} plane{'' if p['planes'] == 1 else 's'}" for p in feasible]},
        "lost-hours-spread": {"kind": "bar", "ct-bar": 4 * len(feasible)},
    }, tables=["design", "planes"])
    f = facts(page, "design")
    shown(f["P(at least one element down)"], d["fabric_steady_state"]["p_any_down"], "P(any down)")
    shown(f["E[elements down]"], d["fabric_steady_state"]["expected_down"], "E[down]")
    shown(f["interruptions, closed form"], d["closed_form"]["expected_interruptions"], "interruptions cf")
    shown(f["interruptions, Monte Carlo mean"], d["monte_carlo"]["interruptions"]["mean"], "interruptions mc")
    shown(f["goodput lost (h), closed form"], d["closed_form"]["expected_lost_hours"], "lost cf")
    shown(f["goodput lost (h), Monte Carlo mean"], d["monte_carlo"]["lost_hours"]["mean"], "lost mc")
    expect(count(f["Monte Carlo trials"]) == d["monte_carlo"]["trials"], "trials")
    by_class = {c["name"]: c for c in classes}
    for bar in page.elements("p-k-down", "ct-bar"):
        k = ["0 down", "1 down", "2 down", "3 or more down"].index(bar["series"])
        value(bar, by_class[bar["category"]]["steady_state"]["p_k_down"][k], f"P({bar['series']}) {bar['category']}")
    names = {f"{p['planes']} plane{'' if p['planes'] == 1 else 's'}": p for p in feasible}
    for bar in page.elements("planes-lost-hours", "ct-bar"):
        p = names[bar["category"]]
        want = p["closed_form"]["expected_lost_hours"] if bar["series"] == "closed form" else \
            p["monte_carlo"]["lost_hours"]["mean"]
        value(bar, want, f"lost hours {bar['category']} {bar['series']}")
    pf = facts(page, "planes")
    for name, p in names.items():
        low, high = pf[name + ": hours lost, 95% interval"].split(" to ")
        shown(low, p["monte_carlo"]["lost_hours"]["ci95_low"], name + " CI low")
        shown(high, p["monte_carlo"]["lost_hours"]["ci95_high"], name + " CI high")
    for b in page.elements("interruptions", "ct-bin"):
        share = names[b["series"]]["monte_carlo"]["interruption_share"]
        k = int(float(b["lo"]))
        expect(float(b["hi"]) == k + 1, f"interruption bin {b}")
        value(b, 100 * share[k], f"{b['series']}: {k} interruptions")
    for bar in page.elements("lost-hours-spread", "ct-bar"):
        pct = names[bar["series"]]["monte_carlo"]["lost_hours_percentiles"]
        value(bar, pct[bar["category"]], f"{bar['series']} {bar['category']}")
    return page


def check_ib_route(browser, html, j):
    healthy = j["healthy"]
    after = j["after_failures"]["routed"]
    fabrics = [("", healthy)] + ([(" after failures", after)] if after else [])
    ranks = [(suffix, b) for suffix, r in fabrics for b in r["uplink_balance"]]
    page = browser.check_report(html, {
        "uplink-balance": {"kind": "histogram", "series": [f"rank {b['rank']}{s}" for s, b in ranks]},
        "switch-hops": {"kind": "bar", "series": ["healthy"] + (["after failures"] if after else [])},
    }, tables=["routing"] + (["degraded"] if after else []))
    # Issue 23 item 19: the first table says it is the healthy fabric's.
    expect(page.tables["routing"]["caption"] == "healthy fabric", f"routing caption {page.tables['routing']['caption']!r}")
    for table_id, r in (("routing", healthy), ("degraded", after)):
        if r is None:
            continue
        f = facts(page, table_id)
        reach = r["reachability"]
        expect(count(f["pairs checked"]) == reach["pairs"] and count(f["pairs delivered"]) == reach["delivered"] and
               count(f["pairs unreachable"]) == reach["unreachable"], f"{table_id} reachability {f}")
        expect(f["credit loop"] == ("found" if r["credit_loops"]["found"] else "none"), "credit loop")
        for kind in ("shift", "random"):
            p = r[kind + "_permutations"]
            expect(count(f[f"{kind} permutations: worst max link load"]) == p["worst_max_load"], f"{kind} worst")
            shown(f[f"{kind} permutations: mean max link load"], p["mean_max_load"], f"{kind} mean")
        for b in r["uplink_balance"]:
            lo, mean, hi = f[f"rank {b['rank']} uplinks: destinations min / mean / max"].split(" / ")
            expect(count(lo) == b["min"] and count(hi) == b["max"], f"{table_id} rank {b['rank']}: {lo} / {hi}")
            shown(mean, b["mean"], f"{table_id} rank {b['rank']} mean")
    # The histogram holds every uplink once; with unit bins its min, max and mean are the JSON's.
    bins = page.elements("uplink-balance", "ct-bin")
    unit = all(float(b["hi"]) - float(b["lo"]) == 1 for b in bins)
    for suffix, b in ranks:
        mine = [x for x in bins if x["series"] == f"rank {b['rank']}{suffix}"]
        uplinks = sum(float(x["value"]) for x in mine)
        expect(uplinks == b["uplinks"], f"rank {b['rank']}{suffix}: {uplinks} uplinks in the histogram, JSON {b['uplinks']}")
        expect(min(float(x["lo"]) for x in mine) <= b["min"] < max(float(x["hi"]) for x in mine), "histogram range")
        if unit:
            expect(min(float(x["lo"]) for x in mine) == b["min"] and max(float(x["lo"]) for x in mine) == b["max"],
                   f"rank {b['rank']}{suffix} histogram range")
            mean = sum(float(x["lo"]) * float(x["value"]) for x in mine) / uplinks
            expect(close(mean, b["mean"], 1e-12), f"rank {b['rank']}{suffix}: mean {mean}, JSON {b['mean']}")
    for suffix, r in fabrics:
        name = "after failures" if suffix else "healthy"
        total = sum(float(b["value"]) for b in page.elements("switch-hops", "ct-bar") if b["series"] == name)
        expect(total == r["reachability"]["delivered"], f"{name}: hop bars add to {total}, "
               f"JSON delivered {r['reachability']['delivered']}")
    return page


def main():
    return browser_check.run_pages((("hash", HASH, check_hash), ("simulate", SIMULATE, check_simulate),
                                    ("simulate-one-flow", SIMULATE_ONE_FLOW, check_simulate),
                                    ("simulate-packet", SIMULATE_PACKET, check_simulate_packet),
                                    ("simulate-roce", SIMULATE_ROCE, check_simulate_ecn),
                                    ("simulate-roce-priorities", SIMULATE_ROCE_PRIORITIES, check_simulate_ecn),
                                    ("reliability", RELIABILITY, check_reliability),
                                    ("ib-route", IB_ROUTE, check_ib_route)), "ct-command-pages-")



if __name__ == "__main__":
    sys.exit(main())
