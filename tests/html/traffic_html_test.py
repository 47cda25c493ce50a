#!/usr/bin/python3
"""`traffic --html` in headless Chromium (issue 14), against the same run's --json and text.

usage: traffic_html_test.py CLUSTERTWIN SOURCE_DIR

Two hosts of the golden fixtures (tests/golden/traffic/), each run once with
`--json -o X.json --html X.html`:

  ss-rdma     `ss -tinH` of 41 connections (one 2.4 GB elephant, 40 mice) on examples/lab-32.yaml
              (a 32-member leaf up group), with NIC counters: netdev 0.35 Gb/s, RDMA 7.93 Gb/s;
  conntrack   `conntrack -L` of 15 entries (two elephants, one UDP entry without byte accounting)
              with --width 32.

Each page must load with no console error and no request besides the file, render a screenshot,
and hold: the size histogram with a mice and an elephants bar per decade of the JSON's
size_distribution (labelled with the decade's bounds, worked out here from from_bytes), adding
up to the connections with byte accounting; the cumulative shares of connections and bytes at each
decade's upper edge (in the axis's unit: the smallest whose largest tick is at most 10^4) with the elephant
threshold as a vertical; a bar per top connection with its
share of all bytes and the running sum (first = top1_share, last = top10_share); the birthday curve
equal to the JSON's and to 1 - prod(1 - i/n) worked out here, this host's elephants marked on it;
the elephants per member (mean and expected busiest); the NIC rates; every facts table equal to
the JSON (six significant digits, byte counts exact), the top table to the text report's two
decimals; and the text report (the same run without --json) verbatim.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check  # noqa: E402
from browser_check import expect, close, count, shown, value, facts  # noqa: E402

T = "tests/golden/traffic/"
SS = ["traffic", "examples/lab-32.yaml", "--ss", T + "host-ss.txt", "--counters", T + "host-t0.prom", T + "host-t1.prom"]
CONNTRACK = ["traffic", "--conntrack", T + "host-conntrack.txt", "--width", "32"]


def byte_count(text):
    """"59,045,187,200 B" -> 59045187200."""
    number, unit = text.split()
    expect(unit == "B", f"byte count {text!r}")
    return int(number.replace(",", ""))


def decade_label(lo):
    """The page's label of [lo, 10 lo): "0-10 B", "1-10 kB", "100 kB-1 MB"."""
    def si(b):
        units = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB"]
        k = len(str(b)) - 1
        return 10 ** (k % 3), units[k // 3]
    if lo == 0:
        return "0-10 B"
    (a, ua), (b, ub) = si(lo), si(lo * 10)
    return f"{a}-{b} {ub}" if ua == ub else f"{a} {ua}-{b} {ub}"


def text_bytes(b):
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if b >= scale:
            return f"{b / scale:.2f} {unit}"
    return f"{b:.0f} B"


def check(browser, html, j, text):
    sizes, top, curve = j["size_distribution"], j["top"], j["elephant_collision_curve"]
    total, known = j["total_bytes"], j["connections"] - j["bytes_unknown"]
    n = j["width"]
    plots = {
        "size-histogram": {"kind": "bar", "ct-bar": 2 * len(sizes), "series": ["mice", "elephants"]},
        "size-cdf": {"kind": "line", "ct-line": 3, "ct-point": 2 * len(sizes)},
        "top-shares": {"kind": "bar", "ct-bar": 2 * len(top), "series": ["each", "cumulative"]},
    }
    if curve:
        plots["collision-curve"] = {"kind": "line", "ct-line": 2, "ct-point": len(curve) + 1}
    if j["elephant_expected_max_load"] is not None:
        plots["elephant-load"] = {"kind": "bar", "ct-bar": 2, "ct-ref": 1}
    nic = j["netdev_bps"] is not None or j["rdma_bps"] is not None
    if nic:
        plots["nic-rates"] = {"kind": "bar", "ct-bar": (j["netdev_bps"] is not None) + (j["rdma_bps"] is not None)}
    page = browser.check_report(html, plots, tables=["summary", "top"] + (["ecmp"] if n else []) + (["nic"] if nic else []))

    f = facts(page, "summary")
    mice = j["connections"] - j["elephants"] - j["bytes_unknown"]
    for key, want in (("connections", j["connections"]), ("connections without byte accounting", j["bytes_unknown"]),
                      ("mice", mice), ("elephants", j["elephants"])):
        expect(count(f[key]) == want, f"summary {key}: page {f[key]}, JSON {want}")
    expect(byte_count(f["bytes in total"]) == total, f"total bytes {f['bytes in total']}")
    expect(byte_count(f["elephant threshold"]) == j["elephant_threshold_bytes"], "threshold")
    expect(byte_count(f["bytes in elephants"]) == j["elephant_bytes"], "elephant bytes")
    shown(f["elephants' share of the bytes"], j["elephant_bytes"] / total, "elephant share")
    shown(f["top connection's share of the bytes"], j["top1_share"], "top1")
    shown(f["top 10's share of the bytes"], j["top10_share"], "top10")

    # Size decades: contiguous, each [10^k, 10^(k+1)), mice and elephants adding up.
    expect(sum(d["mice"] for d in sizes) == mice and sum(d["elephants"] for d in sizes) == j["elephants"],
           f"size distribution {sizes} against {mice} mice, {j['elephants']} elephants")
    expect(sum(d["mice"] + d["elephants"] for d in sizes) == known, "every connection with bytes in a decade")
    expect(close(sum(d["bytes"] for d in sizes), total, 1e-12), "decades' bytes")
    for a, b in zip(sizes, sizes[1:]):
        expect(a["to_bytes"] == b["from_bytes"] == max(a["from_bytes"], 1) * 10, f"decades {a} {b}")
    bars = page.elements("size-histogram", "ct-bar")
    for d in sizes:
        mine = {b["series"]: b for b in bars if b["category"] == decade_label(d["from_bytes"])}
        expect(set(mine) == {"mice", "elephants"}, f"no bars labelled {decade_label(d['from_bytes'])!r}: {bars}")
        value(mine["mice"], d["mice"], f"mice {d}")
        value(mine["elephants"], d["elephants"], f"elephants {d}")
    label = page.plots["size-cdf"]["x_label"]
    unit_name = label[label.index("(") + 1:label.index(", log scale)")]
    unit = 1000 ** ["B", "kB", "MB", "GB", "TB", "PB", "EB"].index(unit_name)
    expect(sizes[-1]["to_bytes"] / unit <= 1e4 and (unit == 1 or sizes[-1]["to_bytes"] / unit > 10),
           f"size axis in {unit_name} up to {sizes[-1]['to_bytes']} B")
    points = page.elements("size-cdf", "ct-point")
    seen = byte_sum = 0
    for k, d in enumerate(sizes):
        seen += d["mice"] + d["elephants"]
        byte_sum += d["bytes"]
        for series, want in (("connections", 100 * seen / known), ("bytes", 100 * byte_sum / total)):
            p = [x for x in points if x["series"] == series][k]
            value(p, d["to_bytes"] / unit, f"{series} CDF x", "x")
            value(p, want, f"{series} CDF at {d['to_bytes']}", "y")
    lines = {e["series"]: e for e in page.elements("size-cdf", "ct-line")}
    threshold = [s for s in lines if s.startswith("elephant threshold")]
    expect(len(threshold) == 1 and lines[threshold[0]]["points"] == "2", f"threshold line {lines}")

    # Top connections: each share and the running sum.
    bars = page.elements("top-shares", "ct-bar")
    running = 0
    for i, c in enumerate(top):
        running += c["bytes"]
        mine = {b["series"]: b for b in bars if b["category"] == f"#{i + 1}"}
        value(mine["each"], 100 * c["bytes"] / total, f"top #{i + 1}")
        value(mine["cumulative"], 100 * running / total, f"top #{i + 1} cumulative")
    value([b for b in bars if b["series"] == "each"][0], 100 * j["top1_share"], "bar #1 = top1_share")
    if len(top) == 10:
        value([b for b in bars if b["series"] == "cumulative"][-1], 100 * j["top10_share"], "bar #10 = top10_share")
    rows = page.table("top")
    expect(len(rows) == len(top), "top table")
    for row, c in zip(rows, top):
        expect(row["connection"] == f"{c['local']} -> {c['peer']}" and row["proto"] == c["protocol"], f"top {row}")
        expect(row["bytes"] == text_bytes(c["bytes"]), f"top {row['bytes']!r} vs {c['bytes']}")
        expect(row["ss delivery_rate"] == ("-" if c["bps"] is None else f"{c['bps'] / 1e9:.2f} Gb/s"), f"top rate {row}")

    if n:
        e = facts(page, "ecmp")
        expect(count(e["members of a leaf up group"]) == n and count(e["elephants"]) == j["elephants"], f"ecmp {e}")
        shown(e["connections per member"], j["connections_per_member"], "connections per member")
        shown(e["elephants per member, mean"], j["elephants"] / n, "elephants per member")
        if j["elephant_collision_probability"] is not None:
            # Issue 23 item 17: a probability that sums a hair below zero shows as 0, never "-0".
            shown(e["P(any two elephants on one member)"], max(j["elephant_collision_probability"], 0.0), "P(any collision)")
        if j["elephant_expected_max_load"] is not None:
            shown(e["elephants on the busiest member, expected"], j["elephant_expected_max_load"], "E[max]")
    if curve:
        expect(len(curve) == min(n + 1, 64), f"curve of {len(curve)} points on {n} members")
        points = page.elements("collision-curve", "ct-point")
        birthday = [p for p in points if not p["series"].startswith("this host")]
        p_no = 1.0
        for k, (p, want) in enumerate(zip(birthday, curve), start=1):
            p_no *= max(0.0, 1 - (k - 1) / n)
            expect(abs(want - (1 - p_no)) <= 1e-12, f"JSON P(any collision) of {k} on {n}: {want}, by hand {1 - p_no}")
            value(p, k, f"curve x {k}", "x")
            value(p, 100 * want, f"curve P({k})", "y")
        mark = [p for p in points if p["series"].startswith("this host")]
        expect(len(mark) == 1, f"this host's mark {mark}")
        value(mark[0], j["elephants"], "this host: elephants", "x")
        value(mark[0], 100 * max(j["elephant_collision_probability"], 0.0), "this host: P", "y")
        # Issue 23 item 17: the host's marker is larger than the curve's, so it shows over them.
        expect(float(mark[0]["r"]) > max(float(p["r"]) for p in birthday), f"this host's marker r={mark[0]['r']}")
    if "elephant-load" in plots:
        bars = {b["category"]: b for b in page.elements("elephant-load", "ct-bar")}
        value(bars["mean per member"], j["elephants"] / n, "mean elephants per member")
        value(bars["busiest member (expected)"], j["elephant_expected_max_load"], "E[max]")
    if nic:
        f = facts(page, "nic")
        bars = {b["category"]: b for b in page.elements("nic-rates", "ct-bar")}
        unit = page.plots["nic-rates"]["y_label"]
        scale = {"b/s": 1.0, "kb/s": 1e3, "Mb/s": 1e6, "Gb/s": 1e9, "Tb/s": 1e12}[unit]
        for key, field, category in (("netdev", "netdev_bps", "netdev (sockets)"),
                                     ("RDMA", "rdma_bps", "RDMA (past the kernel)")):
            if j[field] is None:
                expect(f[key] == "none" and category not in bars, f"nic {key}")
            else:
                shown(f[key], j[field], key)
                value(bars[category], j[field] / scale, category)
    expect(text.rstrip("\n") in page.text, "the text report is not on the page verbatim")
    return page


def main():
    return browser_check.run_pages((("ss-rdma", SS, check), ("conntrack", CONNTRACK, check)), "ct-traffic-page-",
                                   text_report=True)



if __name__ == "__main__":
    sys.exit(main())
