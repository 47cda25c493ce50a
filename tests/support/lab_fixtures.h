// What the tests that run the lab (tests/linux) share: a guard that takes the lab's namespaces down
// when the test ends, passed or failed (lab_down is idempotent), their UDP elephant between a
// pod-0 host and a pod-1 host of the 4-ary fat tree, and the lab's counters read once the packets
// sent are all counted. Header only.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lab/lab_runner.h"
#include "routing/port_address.h"
#include "support/netns.h"
#include "topology/topology.h"

namespace ct::test {

class LabGuard {
 public:
  explicit LabGuard(std::string prefix) : prefix_(std::move(prefix)) {}
  ~LabGuard() { (void)lab_down(prefix_); }
  LabGuard(const LabGuard&) = delete;
  LabGuard& operator=(const LabGuard&) = delete;

 private:
  std::string prefix_;
};

// Elephant i of the lab tests: UDP from host i % 4 to host 4 + (i + 1) % 4 (first NIC, first
// port each), to the discard port 9; the source port is the caller's to choose.
inline LabFlow lab_elephant(const Topology& t, int i) {
  LabFlow f;
  f.src = t.port_of(HostId(i % 4), 0, 0);
  f.dst = t.port_of(HostId(4 + (i + 1) % 4), 0, 0);
  f.key.src_ip = port_address(t, f.src);
  f.key.dst_ip = port_address(t, f.dst);
  f.key.protocol = kIpProtoUdp;
  f.key.dst_port = 9;  // discard
  return f;
}

// Bytes a lab packet of `payload` bytes adds to a veth's counters: UDP, IPv4 and Ethernet headers.
constexpr std::uint64_t lab_wire_bytes(std::uint32_t payload) { return payload + 28 + 14; }

// Every interface whose counters differ between two reads, or "" when none does.
inline std::string lab_counters_moved(const LabPlan& plan, const std::vector<LabCounter>& a, const std::vector<LabCounter>& b) {
  if (a.size() != b.size()) return "the reads list " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " interfaces";
  std::string moved;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].ns != b[i].ns || a[i].device != b[i].device || a[i].transmit_bytes != b[i].transmit_bytes ||
        a[i].receive_bytes != b[i].receive_bytes) {
      moved += plan.namespaces.at(b[i].ns).name + "/" + b[i].device + " ";
    }
  }
  return moved.empty() ? "" : "still counting: " + moved;
}

// Each flow's destination host that has received, over its interfaces, less than `bytes_per_flow`
// times its flows more than in `since`; "" when none.
inline std::string lab_deliveries_missing(const LabPlan& plan, const std::vector<LabFlow>& flows, const std::vector<LabCounter>& since,
                                          const std::vector<LabCounter>& now, std::uint64_t bytes_per_flow) {
  std::map<std::size_t, std::uint64_t> wanted, received;
  for (const LabFlow& f : flows) wanted[static_cast<std::size_t>(plan.namespace_of_vertex.at(f.dst.value()))] += bytes_per_flow;
  for (const LabCounter& c : now) received[c.ns] += c.receive_bytes;
  for (const LabCounter& c : since) received[c.ns] -= c.receive_bytes;
  std::string missing;
  for (const auto& [ns, bytes] : wanted) {
    if (received[ns] < bytes) {
      missing += plan.namespaces.at(ns).name + " received " + std::to_string(received[ns]) + " of " + std::to_string(bytes) + " bytes; ";
    }
  }
  return missing;
}

// Two reads of the lab's counters in a row that agree: `earlier` is the first read to show the final
// counts (where an interval of traffic ends), `later` the last one known unchanged (where the next
// one starts). Counters only grow, so the counts held all the time between the two.
struct LabSettled {
  std::vector<LabCounter> earlier, later;
};

// The lab's counters once the packets sent so far are all counted. A veth hands a packet to the
// next namespace's backlog and the kernel forwards it later, in softirq (ksoftirqd when busy), so
// on a loaded machine a counter can lag the sender that has returned: this reads again, every
// 100 ms, until two whole reads in a row agree on every interface and each of `delivered`'s
// destination hosts has received `bytes_per_flow` per flow since `since` (a floor only where no
// packet may be dropped). A neighbour that answered an ARP request probes its entry 5 s after
// first using it (delay_first_probe_time), so where one read takes seconds, a few more reads are
// needed. After 30 s and at least 8 reads the test fails, saying what was still counting or missing.
inline LabSettled settled_counters(const LabPlan& plan, const std::vector<LabFlow>& delivered = {},
                                   const std::vector<LabCounter>& since = {}, std::uint64_t bytes_per_flow = 0) {
  LabSettled reads;
  std::string unsettled = "no read yet";
  bool first = true;
  const double waited = wait_until(
      [&] {
        auto read = lab_read_counters(plan);
        if (!read.ok()) {
          unsettled = format_diagnostics(read.errors());
          return false;
        }
        reads.earlier = std::exchange(reads.later, std::move(read).value());
        unsettled = first ? "one read only" : lab_counters_moved(plan, reads.earlier, reads.later);
        first = false;
        if (bytes_per_flow > 0) unsettled += lab_deliveries_missing(plan, delivered, since, reads.later, bytes_per_flow);
        return unsettled.empty();
      },
      std::chrono::seconds(30), 8);
  EXPECT_GE(waited, 0) << "the lab's counters did not settle in 30 s and 8 reads: " << unsettled;
  return reads;
}

}  // namespace ct::test
