// The lab's I/O: building, driving and removing the namespaces of a LabPlan with iproute2 (`ip`)
// and sysctl, sending UDP flows from the host namespaces, and reading the interfaces' counters.
// This is the project's edge: nothing under src/ but the lab command calls it (report/lab_json.h
// reads its result types).
//
// Safety: every namespace is named with the plan's prefix and created here; only namespaces of
// the prefix's exact shape (lab_owner.h: prefix, s or h, digits) are removed, and only when the
// prefix's owner mark is the caller's (lab_owner.h); addresses are private (10/8 ports, 172.16/12
// links) and exist only inside those namespaces; the host's own interfaces are never touched.
// lab_up() marks the lab before creating anything and removes what it created when a step fails;
// lab_down() is idempotent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "lab/lab_owner.h"
#include "lab/lab_plan.h"
#include "routing/flow_key.h"

namespace ct {

// "" when the lab can run here, else why not (not root, no `ip`, no netns, no multipath seed).
std::string lab_unavailable();

// Refused (nothing touched) when another uid owns the prefix or unmarked namespaces of its shape
// exist; otherwise replaces any lab of the prefix that `user` owns.
Result<Unit> lab_up(const LabPlan& plan, std::uint32_t user = lab_user());
// Removes the prefix's namespaces and its mark; returns the names removed. Refused (nothing
// touched) as lab_up is.
Result<std::vector<std::string>> lab_down(const std::string& prefix, std::uint32_t user = lab_user());

struct LabFlow {
  VertexId src;  // backend ports
  VertexId dst;
  FlowKey key;   // src/dst addresses are the ports'; protocol UDP
};

struct LabFlowResult {
  LabFlow flow;
  std::uint64_t bytes = 0;  // UDP payload + headers sent (IP length)
  double seconds = 0;
  double bits_per_second = 0;
};

// Sends `packets` UDP datagrams of `payload` bytes per flow, all flows at once (one process each,
// inside its source port's namespace, bound to the flow's source address and port).
Result<std::vector<LabFlowResult>> lab_send(const LabPlan& plan, const std::vector<LabFlow>& flows, std::uint32_t packets,
                                           std::uint32_t payload);

// One lab interface's byte counters, as the kernel's stats64 gives them.
struct LabCounter {
  std::size_t ns = 0;  // index in plan.namespaces
  std::string device;
  std::uint64_t transmit_bytes = 0;
  std::uint64_t receive_bytes = 0;
  std::int64_t time_ms = 0;  // when its namespace was read (Unix time)
};

// Every lab interface's counters (loopback left out), by namespace in plan order, each
// namespace's by ifindex (as `ip link` lists them). Read from /proc/net/dev by a thread that
// enters each namespace in turn, starting no process: the whole lab in milliseconds even on a
// loaded machine, so the read times bracket the traffic closely.
Result<std::vector<LabCounter>> lab_read_counters(const LabPlan& plan);
// The counters as Prometheus text (node_exporter's metric names, the vertex name as `instance`,
// the read time as the sample timestamp, as /federate serves them): every transmit sample, then
// every receive sample.
std::string lab_counters_text(const LabPlan& plan, const std::vector<LabCounter>& counters, const Topology& topology);
// lab_read_counters then lab_counters_text.
Result<std::string> lab_counters(const LabPlan& plan, const Topology& topology);

// Sets both ends of a link down (the kernel then drops the dead next hop from its groups).
Result<Unit> lab_fail_link(const LabPlan& plan, LinkId link);

// The largest frame a lab veth sends: its MTU (1500, the default) and the Ethernet header.
inline constexpr std::uint64_t kLabFrameBytes = 1514;

// Limits what the end `from` of a link transmits over it with a token bucket (tc tbf): `burst_bytes`
// pass at once, then `rate_bps`, with a queue of 1 ms at that rate or one full frame, whichever is
// more; the rest is dropped before the transmit counter sees it, as on a link negotiated at a lower
// speed. An open-loop sender's bytes beyond the bucket and that queue never cross the link, and the
// link is idle once the queue has drained, whenever its counters are read.
Result<Unit> lab_limit_link(const LabPlan& plan, LinkId link, VertexId from, std::uint64_t rate_bps, std::uint64_t burst_bytes);

// The flows CSV of diagnose/flow_results.h for these results.
std::string lab_flows_csv(const std::vector<LabFlowResult>& results);

}  // namespace ct
