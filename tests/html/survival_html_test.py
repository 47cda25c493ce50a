#!/usr/bin/python3
"""`break --html` and `spof --html` in headless Chromium (issue 25, to the page standard of issue 23),
each against the same run's --json.

usage: survival_html_test.py CLUSTERTWIN SOURCE_DIR

Each case runs once on examples/platform (or platform-ha) with `--json -o X.json --html X.html`.
One Chromium (browser_check.py) opens the pages: each must load with no console error and no
request besides the file, render a screenshot, hold its plots, and pass the layout checks (no two
labels overlap, no label over a bar or outside its chart, every chart with a visible mark, no text
box cutting its lines in print); then what the page shows is read back and compared with the JSON:

  break  (a node, a staggered disk and node, data lost, one uplink of two, an issuer whose dated
         certificates expire) the summary facts are the JSON's summary (apps down "N of M", the downtime in total and
         the steady state as the numbers policy prints them, data lost); the apps swim lanes have
         one lane per JSON app and one bar per span of its `down`, starting and ending where the
         JSON says (an open span, to_s null, drawn dashed to the axis' end); the volumes have a
         lane per state that happens (faulted, degraded, unavailable, rebuilding: the states
         overlap in time, so one lane each), its bars where the JSON says; no two bars of a lane
         overlap and no lane's name is cut; the apps, volumes, pods and timeline tables are the
         JSON's rows, and the certificates table the JSON's certificates;
  spof   the summary facts are the JSON's summary; one chart of the apps each SPOF downs for ever
         (the JSON's elements with apps_for_ever > 0, in rank order) and one of the app-seconds of
         the finite outages (app_seconds > 0), so that no ranked element is drawn as an empty
         bar; the ranking table is the JSON's SPOFs in order (element, layer, data); the
         per-layer table is the JSON's layers; no pairs: a sentence, not an empty table.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import count, expect, facts, shown, value  # noqa: E402

PLATFORM = ["examples/platform/manifests", "--dns", "examples/platform/dns/named.conf", "--spec", "examples/platform/cluster.yaml"]
HA = ["examples/platform-ha/manifests", "--dns", "examples/platform-ha/dns/named.conf"]
BREAK_NODE3 = ["break"] + PLATFORM + ["--node", "node-3"]
BREAK_STAGGERED = ["break"] + PLATFORM + ["--disk", "node-2", "--node", "node-3", "--at", "100"]
BREAK_DATA_LOST = ["break"] + PLATFORM + ["--node", "node-2", "--node", "node-3", "--node", "node-4"]
BREAK_NOTHING = ["break"] + PLATFORM + ["--link", "host0/fe0 -- fe/leaf/0"]
DATED = ["examples/platform/manifests/" + f for f in ("00-cluster.yaml", "10-metallb.yaml", "20-cert-manager.yaml")] + \
        ["tests/fuzz/seeds/certificates.yaml"] + \
        ["examples/platform/manifests/" + f for f in ("30-gateway.yaml", "40-routes.yaml", "50-apps.yaml", "60-storage.yaml")]
BREAK_ISSUER = ["break"] + DATED + ["--dns", "examples/platform/dns/named.conf", "--issuer", "internal-ca", "--now", "2026-12-06T00:00:00Z"]
SPOF_PLATFORM = ["spof"] + PLATFORM + ["--pairs", "4"]
SPOF_COMPARE = ["spof"] + PLATFORM + ["--compare", "examples/platform-ha/manifests", "--compare-dns", "examples/platform-ha/dns/named.conf"]
SPOF_HA = ["spof"] + HA
ELLIPSIS = "\u2026"


def volume_lanes(v):
    """The lanes break_html draws for a volume (src/report/break_report.cpp): [(name, [(from, to)])]."""
    lanes = [(" faulted", [(v["lost_s"], None)] if v["lost_s"] is not None else []),
             (" degraded", [(v["degraded_s"], v["rebuild_end_s"])] if v["degraded_s"] is not None and v["lost_s"] is None else []),
             (" unavailable", [(s["from_s"], s["to_s"]) for s in v["unavailable"]]),
             (" rebuilding", [(v["rebuild_start_s"], v["rebuild_end_s"])] if v["rebuild_start_s"] is not None else [])]
    return [(v["claim"] + suffix, spans) for suffix, spans in lanes if spans]


def check_spans(page, plot_id, rows):
    """rows: [(lane name, [(from, to or None)])]; the bars of the plot in the same order, no two of
    a lane overlapping, no lane name cut."""
    bars = page.elements(plot_id, "ct-span")
    want = [(name, f, t) for name, spans in rows for f, t in spans]
    expect(len(bars) == len(want), f"{plot_id}: {len(bars)} bars, JSON {len(want)}")
    for bar, (name, f, t) in zip(bars, want):
        expect(bar["row"] == name, f"{plot_id}: bar of {bar['row']}, JSON {name}")
        value(bar, f, f"{plot_id} {name} start", key="start")
        expect((bar["open"] == "1") == (t is None), f"{plot_id} {name}: open {bar['open']}, JSON to {t}")
        if t is not None:
            value(bar, t, f"{plot_id} {name} end", key="end")
    for name, _ in rows:
        mine = sorted((float(b["start"]), float(b["end"])) for b in bars if b["row"] == name)
        expect(all(a[1] <= b[0] for a, b in zip(mine, mine[1:])), f"{plot_id}: bars of {name} overlap: {mine}")
    labels = page.plot_texts(plot_id)
    for name, _ in rows:
        cut = [x for x in labels if ELLIPSIS in x]
        expect(name in labels, f"{plot_id}: the lane {name!r} is not named in full ({cut})")


def check_break(browser, html, j):
    s = j["summary"]
    lanes = [lane for v in j["volumes"] for lane in volume_lanes(v)]
    plots = {}
    if j["apps"]:
        plots["apps"] = {"kind": "timeline", "ct-span": sum(len(a["down"]) for a in j["apps"])}
    if lanes:
        plots["volumes"] = {"kind": "timeline", "ct-span": sum(len(spans) for _, spans in lanes)}
    tables = ["summary", "events"] + (["apps"] if j["apps"] else []) + (["volumes"] if j["volumes"] else []) + \
             (["pods"] if j["pods"] else []) + (["certificates"] if j.get("certificates") else [])
    page = browser.check_report(html, plots, tables=tables)
    f = facts(page, "summary")
    expect(f["apps down"] == f"{s['apps_down']} of {s['apps']}", f"apps down {f['apps down']!r}, JSON {s}")
    expect(count(f["requests traced"]) == s["requests_traced"], "requests traced")
    expect(count(f["apps down for ever"]) == s["apps_down_for_ever"], "apps down for ever")
    shown(f["downtime in total"], s["total_downtime_s"], "downtime in total")
    shown(f["steady state at"], s["steady_s"], "steady state")
    expect(f["data lost"] == ("yes" if s["data_lost"] else "no"), "data lost")
    if j["apps"]:
        check_spans(page, "apps", [(a["app"], [(d["from_s"], d["to_s"]) for d in a["down"]]) for a in j["apps"]])
        rows = page.table("apps")
        expect([r["app"] for r in rows] == [a["app"] for a in j["apps"]], f"apps table {rows}")
    else:
        expect("apps" not in page.plots and "No app fails." in page.text, "no app fails")
    if lanes:
        check_spans(page, "volumes", lanes)
    else:
        expect("volumes" not in page.plots and "No Longhorn volume changes." in page.text, "no volume changes")
    if j["volumes"]:
        rows = page.table("volumes")
        expect([(r["volume"], r["size"], r["left"]) for r in rows] ==
               [(v["claim"], v["size"], f"{v['replicas_left']} of {v['replicas_wanted']}") for v in j["volumes"]], f"volumes {rows}")
    if j["pods"]:
        expect([r["pod"] for r in page.table("pods")] == [p["pod"] for p in j["pods"]], "pods")
    expect(len(page.table("events")) == len(j["events"]), "timeline rows")
    for row, c in zip(page.table("certificates") if j.get("certificates") else [], j.get("certificates", [])):
        expect((row["certificate"], row["issuer"], row["Secret"]) == (c["certificate"], c["issuer"], c["secret"]), f"certificate {row}")
        expect((row["TLS fails from"] == "-") == (c["tls_fails_s"] is None), f"certificate {c['certificate']}: {row['TLS fails from']!r}")
    return page


def check_spof(browser, html, j):
    s = j["summary"]
    spofs = [c for c in j["ranked"] if c["spof"]]
    for_ever = [c for c in spofs if c["apps_for_ever"] > 0]
    seconds = [c for c in spofs if c["app_seconds"] > 0]
    plots = {}
    if for_ever:
        plots["apps-for-ever"] = {"kind": "bar", "ct-bar": len(for_ever)}
    if seconds:
        plots["app-seconds"] = {"kind": "bar", "ct-bar": len(seconds)}
    tables = ["summary", "layers"] + (["ranking"] if spofs else []) + (["pairs"] if j["pairs"] else [])
    page = browser.check_report(html, plots, tables=tables)
    f = facts(page, "summary")
    expect(count(f["elements removed one at a time"]) == s["elements"], "elements")
    expect(count(f["single points of failure"]) == s["spofs"], "spofs")
    expect(count(f["apps"]) == s["apps"], "apps")
    expect(count(f["requests traced at each change"]) == s["requests"], "requests")
    label = lambda c: f"{c['kind']} {c['name']}"  # noqa: E731
    for plot_id, chosen, field in (("apps-for-ever", for_ever, "apps_for_ever"), ("app-seconds", seconds, "app_seconds")):
        if not chosen:
            expect(plot_id not in page.plots, f"{plot_id} drawn with nothing to show")
            continue
        bars = page.elements(plot_id, "ct-bar")
        expect([b["category"] for b in bars] == [label(c) for c in chosen], f"{plot_id} bars {[b['category'] for b in bars]}")
        for b, c in zip(bars, chosen):
            value(b, c[field], f"{plot_id} {label(c)}")
    if spofs:
        rows = page.table("ranking")
        expect([(r["element"], r["layer"], r["data"]) for r in rows] ==
               [(label(c), c["layer"], "LOST" if c["data_lost"] else "-") for c in spofs], f"ranking table {rows}")
    else:
        expect("No single element downs an app." in page.text, "no SPOF")
    if s["pairs_tried"] > 0 and not j["pairs"]:
        expect("none downs an app that neither downs alone" in page.text and "pairs" not in page.tables, "no pairs")
    rows = page.table("layers")
    expect([(r["layer"], count(r["elements"])) for r in rows] == [(l["layer"], l["elements"]) for l in j["layers"]], f"layers {rows}")
    for r, l in zip(rows, j["layers"]):
        want = "none" if l["modelled"] and not l["spofs"] else None
        if want:
            expect(r["single points of failure"] == want, f"layer {l['layer']}: {r['single points of failure']!r}")
        elif l["modelled"]:
            expect(all(x in r["single points of failure"] for x in l["spofs"]), f"layer {l['layer']}: {r}")
    return page


def main():
    return browser_check.run_pages((("break-node3", BREAK_NODE3, check_break),
                                    ("break-staggered", BREAK_STAGGERED, check_break),
                                    ("break-data-lost", BREAK_DATA_LOST, check_break),
                                    ("break-nothing-fails", BREAK_NOTHING, check_break),
                                    ("break-issuer-dated", BREAK_ISSUER, check_break),
                                    ("spof-platform", SPOF_PLATFORM, check_spof),
                                    ("spof-compare-ha", SPOF_COMPARE, check_spof),
                                    ("spof-ha-no-spec", SPOF_HA, check_spof)), "ct-survival-pages-")


if __name__ == "__main__":
    sys.exit(main())
