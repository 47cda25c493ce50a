#!/usr/bin/python3
"""`trace`, `routes` and `route --html` in headless Chromium (issue 14), each against the same run's
--json.

usage: frontend_html_test.py CLUSTERTWIN SOURCE_DIR

Each case runs once on examples/platform (or tests/frontend/conflicts.yaml) with
`--json -o X.json --html X.html`: one run, both reports, one OutputSet commit. One Chromium
(browser_check.py) opens the pages; each must load with no console error and no request besides
the file, render a screenshot and hold its plots; then what the page shows is read back from the
browser and compared with the JSON:

  trace   the step diagram has one step per JSON hop with its verdict, its options and taken
          options counted from the hop's choices, one ct-option per option (up to 12 a choice) with
          the JSON's name and taken flag; the hop table is the JSON's hops (verdict, decided by,
          where, summary); the choices table is every option of every choice; the survival table
          is the JSON's survival (node, served, effect, replicas left per claim); the request facts
          (client, HTTP status, hops ok and failed, nodes touched, fatal nodes) are counted from the
          JSON's hops and survival;
  routes  the bars of rules-per-hostname are the JSON's table entries counted per hostname; the
          bars of problems are the JSON's conditions that report a problem (Conflicted True, any
          other type False) counted per object and reason, plus the shadowed rules and the routes
          attached nowhere; the summary facts and the tables' row counts are the JSON's;
  route   the decision path's steps carry the outcome the JSON's status implies (200: all ok;
          500 with a rule: the backends FAILED), the listener step takes the JSON's listener, the
          backend-share bars are the JSON's shares x 100, the reasons table is the JSON's reasons.

The command line shown is the argv shell-quoted as main.cpp quotes it (a request with a space is
one single-quoted word).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import expect, facts  # noqa: E402

PLATFORM = "examples/platform/manifests"
DNS = ["--dns", "examples/platform/dns/named.conf"]
TRACE_INSIDE = ["trace", "GET https://api.example.com/v1/models", PLATFORM, "--from", "inside"] + DNS + \
               ["--spec", "examples/platform/cluster.yaml"]
TRACE_STOPPED = ["trace", "GET https://grafana.apps.example.com/", PLATFORM, "--from", "outside"] + DNS
ROUTES_CONFLICTS = ["routes", "tests/frontend/conflicts.yaml"]
ROUTES_PLATFORM = ["routes", PLATFORM]
ROUTE_OK = ["route", PLATFORM, "--request", "GET https://api.example.com/v1/models"]
ROUTE_BROKEN = ["route", PLATFORM, "--request", "GET https://wiki.apps.example.com/old/page"]
OPTIONS_SHOWN = 12  # svg_chart.h kStepOptionsShown


def check_trace(browser, html, j):
    hops = j["hops"]
    shown = sum(min(len(c["options"]), OPTIONS_SHOWN) for h in hops for c in h["choices"])
    plots = {"hops": {"kind": "steps", "ct-step": len(hops), "ct-arrow": len(hops) - 1, "ct-option": shown}}
    tables = ["request", "hops", "choices"] + (["survival"] if j["survival"] else [])
    page = browser.check_report(html, plots, tables=tables)
    f = facts(page, "request")
    expect(f["client"] == j["client"], f"client {f['client']}")
    want_status = str(j["httpStatus"]) if j["httpStatus"] else "none (the request never reached HTTP)"
    expect(f["HTTP status"] == want_status, f"HTTP status {f['HTTP status']}, JSON {j['httpStatus']}")
    expect(int(f["hops ok"]) == sum(1 for h in hops if h["status"] == "ok"), "hops ok")
    expect(int(f["hops failed"]) == sum(1 for h in hops if h["status"] == "FAILED"), "hops failed")
    expect(int(f["nodes touched"]) == len(j["survival"]), "nodes touched")
    expect(int(f["nodes whose death stops the request"]) == sum(1 for n in j["survival"] if not n["served"]),
           "fatal nodes")

    steps = page.elements("hops", "ct-step")
    # Issue 23 item 21: a choice's heading wraps, never cut ("replica model-we...").
    for step, h in zip(steps, hops):
        headings = " ".join(step["texts"])
        for c in h["choices"]:
            label = [c["what"]] + ([c["of"]] if c["what"] in ("replica", "engine") else [])
            expect(all(word in headings.split() for word in " ".join(label).split()), f"hop {h['hop']}: heading {label} cut in {headings!r}")
    for step, h in zip(steps, hops):
        options = [o for c in h["choices"] for o in c["options"]]
        expect(step["step"] == f"hop{h['hop']}" and step["status"] == h["status"], f"step {step} vs hop {h['hop']}")
        expect(int(step["options"]) == len(options) and int(step["taken"]) == sum(1 for o in options if o["taken"]),
               f"hop {h['hop']}: step counts {step['options']}/{step['taken']}, JSON {options}")
        drawn = [(o["option"], o["taken"] == "1") for o in page.elements("hops", "ct-option") if o["step"] == step["step"]]
        want = [(o["name"], o["taken"]) for c in h["choices"] for o in c["options"][:OPTIONS_SHOWN]]
        expect(drawn == want, f"hop {h['hop']}: options drawn {drawn}, JSON {want}")
    rows = page.table("hops")
    expect(len(rows) == len(hops), "hop rows")
    for row, h in zip(rows, hops):
        expect((row["#"], row["verdict"], row["decided by"], row["where"], row["summary"]) ==
               (str(h["hop"]), h["status"], h["decidedBy"], h["where"], h["summary"]), f"hop row {row} vs {h}")
    want = [(str(h["hop"]), c["what"], c["of"], o["name"], o["detail"], o["node"], "yes" if o["taken"] else "no")
            for h in hops for c in h["choices"] for o in c["options"]]
    got = [(r["#"], r["decision"], r["of"], r["option"], r["detail"], r["node"], r["taken"]) for r in page.table("choices")]
    expect(got == want, f"choices table {got} vs JSON {want}")
    if j["survival"]:
        rows = page.table("survival")
        expect(len(rows) == len(j["survival"]), "survival rows")
        for row, n in zip(rows, j["survival"]):
            left = "; ".join(f"{r['claim']}: {r['left']} of {r['of']}" for r in n["replicasLeft"]) or "-"
            expect((row["node"], row["roles"], row["request served"], row["effect"], row["replicas left"]) ==
                   (n["node"], "; ".join(n["roles"]), "yes" if n["served"] else "no", n["effect"], left),
                   f"survival row {row} vs {n}")
    else:
        expect("If a node dies" in page.text and "touched no node" in page.text, "survival paragraph")
    return page


def bad(c):
    """A condition that reports a problem: Conflicted True, any other type False."""
    return c["status"] == "True" if c["type"] == "Conflicted" else c["status"] == "False"


def problems_of(j):
    counts = {}
    def add(kind):
        counts[kind] = counts.get(kind, 0) + 1
    for g in j["gateways"]:
        for c in g["conditions"]:
            if bad(c):
                add(f"gateway: {c['type']} {c['reason']}")
    for g in j["gateways"]:
        for l in g["listeners"]:
            for c in l["conditions"]:
                if bad(c):
                    add(f"listener: {c['type']} {c['reason']}")
    for r in j["routes"]:
        for c in r["conditions"]:
            if bad(c):
                add(f"route: {c['type']} {c['reason']}")
    for _ in j["shadowed"]:
        add("rule: shadowed")
    for _ in j["unattached"]:
        add("route: attached nowhere")
    return counts


def check_routes(browser, html, j):
    listeners = [l for g in j["gateways"] for l in g["listeners"]]
    hosts = {}
    for l in listeners:
        for e in l["table"]:
            h = e["hostname"] or "*any*"
            hosts[h] = hosts.get(h, 0) + 1
    problems = problems_of(j)
    plots = {"rules-per-hostname": {"kind": "bar", "ct-bar": len(hosts)}}
    if problems:
        plots["problems"] = {"kind": "bar", "ct-bar": len(problems)}
    page = browser.check_report(html, plots, tables=["summary", "listeners", "route-table", "routes", "shadowed",
                                                     "unattached"])
    got = {b["category"]: float(b["value"]) for b in page.elements("rules-per-hostname", "ct-bar")}
    expect(got == hosts, f"rules per hostname {got}, JSON {hosts}")
    if problems:
        got = {b["category"]: float(b["value"]) for b in page.elements("problems", "ct-bar")}
        expect(got == problems, f"problems {got}, JSON {problems}")
    else:
        expect("problems" not in page.plots, "a problems plot without problems")
    f = facts(page, "summary")
    want = {"Gateways": len(j["gateways"]), "listeners": len(listeners),
            "listeners conflicted": sum(1 for l in listeners for c in l["conditions"]
                                        if c["type"] == "Conflicted" and c["status"] == "True"),
            "route parentRefs": len(j["routes"]),
            "route parentRefs accepted": sum(1 for r in j["routes"] for c in r["conditions"]
                                             if c["type"] == "Accepted" and c["status"] == "True"),
            "route-table entries": sum(len(l["table"]) for l in listeners), "shadowed rules": len(j["shadowed"]),
            "routes attached nowhere": len(j["unattached"]), "unknown kinds ignored": len(j["unknownKinds"])}
    for key, value in want.items():
        expect(int(f[key]) == value, f"summary {key}: page {f[key]}, JSON {value}")
    expect(len(page.table("listeners")) == len(listeners), "listener rows")
    # Issue 23 item 21: a healthy listener's conditions in one short line, problems in full.
    for row, l in zip(page.table("listeners"), listeners):
        healthy = not any(bad(c) for c in l["conditions"])
        expect(row["conditions"].startswith("healthy: ") == healthy and ("=" not in row["conditions"]) == healthy,
               f"listener conditions {row['conditions']!r}")
    rows = page.table("route-table")
    want = [(e["hostname"] or "*any*", e["match"], e["route"], str(e["rule"])) for l in listeners for e in l["table"]]
    expect([(r["hostname"], r["match"], r["route"], r["rule"]) for r in rows] == want, f"route table {rows}")
    expect([(r["route"], r["rule"], r["taken by route"], r["taken by rule"]) for r in page.table("shadowed")] ==
           [(s["route"], str(s["rule"]), s["byRoute"], str(s["byRule"])) for s in j["shadowed"]], "shadowed")
    expect([r["route"] for r in page.table("unattached")] == j["unattached"], "unattached")
    return page


def check_route(browser, html, j):
    status = j["status"]
    page = browser.check_report(html, {
        "decision-path": {"kind": "steps", "ct-step": 6, "ct-arrow": 5},
        # Issue 23 item 21: a backend that cannot serve is a series of its own (what fails).
        "backend-shares": {"kind": "bar", "ct-bar": len(j["backends"]) * (2 if any(not b["valid"] for b in j["backends"]) else 1)},
    }, tables=["decision", "backends", "reasons"])
    f = facts(page, "decision")
    expect(int(f["status"]) == status, f"status {f['status']}")
    expect(f.get("Gateway") == j.get("gateway") and f.get("listener") == j.get("listener"), f"decision {f}")
    if "route" in j:
        expect(f["route rule"] == f"{j['route']['name']} rule {j['route']['rule']}", "route rule")
        expect(f["match"] == j["route"]["description"] and f["rule defined at"] == j["route"]["where"], "match")
    steps = {s["step"]: s for s in page.elements("decision-path", "ct-step")}
    want = {"request": "ok", "gateway": "ok", "listener": "ok", "rule": "ok",
            "backends": "ok" if status == 200 else "FAILED", "result": "ok" if status == 200 else "FAILED"}
    got = {k: s["status"] for k, s in steps.items()}
    expect(got == want, f"decision path {got}, expected for status {status}: {want}")
    taken = [o["option"] for o in page.elements("decision-path", "ct-option") if o["step"] == "listener" and o["taken"] == "1"]
    expect(taken == [j["listener"]], f"listener taken {taken}, JSON {j['listener']}")
    backends = [o for o in page.elements("decision-path", "ct-option") if o["step"] == "backends"]
    expect([(o["option"], o["taken"] == "1") for o in backends] ==
           [(b["service"], b["valid"] and b["weight"] > 0) for b in j["backends"]],
           f"backend options {backends}")
    bars = {(bar["series"].split(" ")[0], bar["category"]): float(bar["value"])
            for bar in page.elements("backend-shares", "ct-bar")}
    for b in j["backends"]:
        got = bars[("served" if b["valid"] else "fails:", b["service"])]
        expect(abs(got - 100 * b["share"]) <= 1e-12 * 100, f"share bar {got} vs {b}")
    rows = page.table("backends")
    expect([(r["backend"], r["port"], r["weight"], r["status"]) for r in rows] ==
           [(b["service"], str(b["port"]), str(b["weight"]), "ok" if b["valid"] else b["problem"]) for b in j["backends"]],
           f"backends table {rows}")
    expect([r["reason"] for r in page.table("reasons")] == j["reasons"], "reasons")
    return page


def main():
    return browser_check.run_pages((("trace-inside", TRACE_INSIDE, check_trace),
                                    ("trace-stopped", TRACE_STOPPED, check_trace),
                                    ("routes-conflicts", ROUTES_CONFLICTS, check_routes),
                                    ("routes-platform", ROUTES_PLATFORM, check_routes),
                                    ("route-ok", ROUTE_OK, check_route),
                                    ("route-broken-backend", ROUTE_BROKEN, check_route)), "ct-frontend-pages-")



if __name__ == "__main__":
    sys.exit(main())
