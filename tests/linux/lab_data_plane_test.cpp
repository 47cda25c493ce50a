// The twin against the Linux kernel forwarding real packets: examples/lab/fat-tree-4.yaml built as
// 28 network namespaces (lab_plan.h), 8 UDP flows sent from the pod-0 hosts to the pod-1 hosts,
// and the interfaces' byte counters read before and after.
//
// Expected, worked by hand for one seed everywhere: an aggregation switch j is entered only over
// the edges' member j, i.e. with a hash in the j-th half of the 31-bit range; with the same seed it
// computes the same hash and its 2-way hash-threshold split picks member j again. So of pod 0's
// 4 aggregation->core uplinks exactly 2 can carry traffic (spine/0 -> core/0 and spine/1 -> core/3),
// whatever the flows: K = 2 of K x M = 4. With per-switch seeds the aggregation decision is
// independent. The 8 flows below (2 from each pod-0 host) take source ports found with the
// per-switch twin so that it places exactly 2 flows on each of the 4 uplinks: the fix's balanced
// counters. With one seed the same flows can use only the 2 reachable uplinks, 4 flows each.
// Checks: (1) every directed link that carried at least half a flow's bytes is one the twin's path
// walk puts a flow on, and vice versa, for both seed modes; (2) the counts 2 and 4 above, and with
// per-switch seeds each uplink's transmit counter within 25% of 2 flows' bytes (Jain >= 0.95)
// and no pod-0 aggregation group judged imbalanced;
// (3) `diagnose` on the lab's counters names polarization on a pod-0 aggregation uplink group;
// (4) with an edge uplink that the twin uses set down, `diagnose` names the failed member.
// (5) Healthy links are not blamed beside the fault (issue 22, item 12), with per-switch seeds and
// four flows chosen with the twin (fixture search): f1 host 0 -> leaf/0 -> spine/0 (over U, the
// uplink under test) -> core uplink A; f2 host 1 -> leaf/0 -> spine/1 -> core uplink B; f3 host 2
// -> leaf/1 -> spine/0 -> its other core uplink; f4 host 3 -> leaf/1 -> spine/1 -> its other core
// uplink; and f1, rerouted over spine/1 when U is down, takes B as well. (a) U set down: the kernel
// moves f1 to spine/1, whose uplinks then carry 2 and 1 flows where the built fabric's walk gives
// them 1 and 1: per walked flow the lighter one runs at half its twin's rate, but per flow it
// really carries both run at one flow's rate. Expected: leaf/0's group a failed member naming U,
// spine/0's group (f3 alone, U's side idle) fewer flows than members, and no member degraded.
// (b) U limited with tc tbf to 40% of f1's bytes: leaf/0's group degraded, naming U; spine/0's
// uplink A carries f1 at 40% of its twin's rate per flow, but f1 is slowed at U upstream, so A is
// not degraded: exactly one degraded group.
// Needs root, iproute2, tc, netns and a kernel with fib_multipath_hash_seed (6.11+); otherwise
// skipped with the reason. Namespaces are named ctlab-<pid>- and removed by a guard.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "diagnose/counter_inputs.h"
#include "diagnose/diagnosis.h"
#include "io/loaders.h"
#include "lab/lab_runner.h"
#include "routing/port_address.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/fixture_fabric.h"
#include "support/lab_fixtures.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using test::LabGuard;

constexpr std::uint32_t kPackets = 400;
constexpr std::uint32_t kPayload = 1000;

Fabric fabric_from(const std::string& relative) { return fixtures::example_fabric(relative); }

// The pod-0 aggregation -> core link a flow takes in `f`'s model.
std::uint32_t core_uplink(const Fabric& f, const LabFlow& x) {
  std::vector<PathHop> hops;
  f.walker().walk(x.src, x.dst, x.key, hops);
  for (const PathHop& h : hops) {
    if (h.up && f.topology().tier[f.topology().other_end(h.link, h.from).value()] == 3) return h.link.value();
  }
  ADD_FAILURE() << "flow does not reach a core switch";
  return 0;
}

// Hosts 0-3 (pod 0) to hosts 4-7 (pod 1), two flows each; each flow's source port is the first
// from 40000 (step 13) that the per-switch model puts on a pod-0 core uplink holding < 2 flows
// (fixture search, not an expectation: the kernel is the check).
std::vector<LabFlow> flows(const Fabric& per_switch) {
  const Topology& t = per_switch.topology();
  std::vector<LabFlow> out;
  std::map<std::uint32_t, int> load;
  int port = 40000;
  for (int i = 0; i < 8; ++i) {
    LabFlow f = test::lab_elephant(t, i);
    for (;; port += 13) {
      f.key.src_port = static_cast<std::uint16_t>(port);
      if (load[core_uplink(per_switch, f)] < 2) break;
    }
    ++load[core_uplink(per_switch, f)];
    port += 13;
    out.push_back(f);
  }
  return out;
}

std::set<std::uint32_t> twin_links(const Fabric& f, const std::vector<LabFlow>& fl) {
  std::set<std::uint32_t> out;
  std::vector<PathHop> hops;
  for (const LabFlow& x : fl) {
    EXPECT_TRUE(f.walker().walk(x.src, x.dst, x.key, hops));
    for (const PathHop& h : hops) out.insert(h.directed());
  }
  return out;
}

struct Run {
  std::string before, after, flows_csv;
};

// The counters are read once settled (test::settled_counters): the kernel may still be forwarding
// when a sender returns.
Run send_and_scrape(const LabPlan& plan, const Fabric& f, const std::vector<LabFlow>& fl) {
  Run r;
  // Warm-up: resolve every neighbour on the paths so no packet waits in an ARP queue; done when
  // every warm-up packet has reached its destination host.
  const std::vector<LabCounter> idle = test::settled_counters(plan).later;
  EXPECT_TRUE(lab_send(plan, fl, 3, 64).ok());
  // The rates' interval: from the last read known idle to the first read with every count.
  const std::vector<LabCounter> before = test::settled_counters(plan, fl, idle, 3 * test::lab_wire_bytes(64)).later;
  auto sent = lab_send(plan, fl, kPackets, kPayload);
  EXPECT_TRUE(sent.ok()) << (sent.ok() ? "" : format_diagnostics(sent.errors()));
  // No floor on what arrives: a failed or rate-limited member drops packets, and the checks count them.
  const std::vector<LabCounter> after = test::settled_counters(plan).earlier;
  r.before = lab_counters_text(plan, before, f.topology());
  r.after = lab_counters_text(plan, after, f.topology());
  r.flows_csv = sent.ok() ? lab_flows_csv(sent.value()) : "";
  return r;
}

Counters counters_of(const Fabric& f, const LabPlan& plan, const Run& run) {
  CounterInputs in;
  in.scrapes = {{"before.prom", run.before}, {"after.prom", run.after}};
  in.map = TextInput{"map.csv", lab_port_map(plan, f.topology())};
  in.flows = {{"flows.csv", run.flows_csv}};
  auto c = read_counter_inputs(in, f);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : format_diagnostics(c.errors()));
  return c.ok() ? std::move(c).value() : Counters{};
}

// Directed links whose switch transmit counter moved by at least half a flow's bytes.
std::set<std::uint32_t> busy_links(const Fabric& f, const Counters& c) {
  std::set<std::uint32_t> out;
  const double half_flow = 0.5 * kPackets * (kPayload + 28);
  for (const SeriesRate& s : c.rates.series) {
    if (!s.transmit || s.bytes < half_flow) continue;
    const MappedPort* p = c.map.find(s.instance, s.device);
    if (p == nullptr) continue;
    const bool lower = f.topology().link_a[p->link.value()] == p->vertex;
    out.insert(directed_link(p->link, lower));
  }
  return out;
}

std::size_t pod0_core_uplinks(const Fabric& f, const std::set<std::uint32_t>& links) {
  const Topology& t = f.topology();
  std::size_t n = 0;
  for (const std::uint32_t d : links) {
    const std::uint32_t l = d / 2;
    const VertexId a = t.link_a[l];
    if (d % 2 == 0 && t.tier[t.link_b[l].value()] == 3 && t.group[a.value()] == 0) ++n;
  }
  return n;
}

std::string names(const Fabric& f, const std::set<std::uint32_t>& links) {
  std::string s;
  for (const std::uint32_t d : links) s += f.topology().link_name(LinkId(d / 2)) + (d % 2 ? " (down)" : " (up)") + "; ";
  return s;
}

TEST(LabDataPlane, KernelForwardsWhereTheTwinPredictsAndDiagnoseNamesTheCause) {
  if (const std::string why = lab_unavailable(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<LabFlow> fl = flows(fabric_from("examples/lab/fat-tree-4-per-switch.yaml"));
  for (const bool per_switch : {false, true}) {
    SCOPED_TRACE(per_switch ? "per-switch seeds" : "one seed");
    const Fabric f = fabric_from(per_switch ? "examples/lab/fat-tree-4-per-switch.yaml" : "examples/lab/fat-tree-4.yaml");
    const std::string prefix = "ctlab-" + std::to_string(getpid()) + (per_switch ? "-b-" : "-a-");
    LabGuard guard(prefix);
    auto plan = plan_lab(f, prefix);
    ASSERT_TRUE(plan.ok()) << format_diagnostics(plan.errors());
    auto up = lab_up(plan.value());
    ASSERT_TRUE(up.ok()) << format_diagnostics(up.errors());
    const Counters c = counters_of(f, plan.value(), send_and_scrape(plan.value(), f, fl));
    const std::set<std::uint32_t> kernel = busy_links(f, c), twin = twin_links(f, fl);
    EXPECT_EQ(kernel, twin) << "kernel: " << names(f, kernel) << "\ntwin: " << names(f, twin);
    if (per_switch) {
      EXPECT_EQ(pod0_core_uplinks(f, kernel), 4u);
      // Balanced: each pod-0 uplink's transmit counter near 2 flows' bytes.
      const double two_flows = 2.0 * kPackets * (kPayload + 28);
      double sum = 0, sum2 = 0;
      int n = 0;
      for (const SeriesRate& s : c.rates.series) {
        const MappedPort* p = c.map.find(s.instance, s.device);
        if (!s.transmit || p == nullptr || s.kind != CounterKind::kNetdev) continue;
        const Topology& t = f.topology();
        const std::uint32_t l = p->link.value();
        if (!(p->vertex == t.link_a[l]) || t.tier[t.link_b[l].value()] != 3 || t.group[t.link_a[l].value()] != 0) continue;
        EXPECT_GT(s.bytes, 0.75 * two_flows) << t.link_name(p->link);
        EXPECT_LT(s.bytes, 1.25 * two_flows) << t.link_name(p->link);
        sum += s.bytes;
        sum2 += s.bytes * s.bytes;
        ++n;
      }
      EXPECT_EQ(n, 4);
      EXPECT_GE(sum * sum / (n * sum2), 0.95);
    } else {
      EXPECT_EQ(pod0_core_uplinks(f, kernel), 2u);
    }

    auto d = diagnose(f, c, DiagnoseOptions{});
    ASSERT_TRUE(d.ok());
    bool polarized = false;
    for (const GroupDiagnosis& g : d->groups) {
      if (g.imbalanced && g.cause == Cause::kPolarization) polarized = true;
    }
    EXPECT_EQ(polarized, !per_switch);
    if (per_switch) {
      for (const GroupDiagnosis& g : d->groups) {
        const Topology& t = f.topology();
        if (t.tier[g.sw.value()] == 2 && t.group[g.sw.value()] == 0) {
          EXPECT_FALSE(g.imbalanced) << t.vertex_name(g.sw);
        }
      }
    }

    if (per_switch) continue;
    // Fail the first edge uplink the twin uses for flow 0, send again: the kernel drops the dead
    // next hop and its flows move to the twin; diagnose must name the failure.
    std::vector<PathHop> hops;
    f.walker().walk(fl[0].src, fl[0].dst, fl[0].key, hops);
    ASSERT_GE(hops.size(), 2u);
    const LinkId failed = hops[1].link;  // edge -> aggregation
    ASSERT_TRUE(lab_fail_link(plan.value(), failed).ok());
    const Counters c2 = counters_of(f, plan.value(), send_and_scrape(plan.value(), f, fl));
    EXPECT_EQ(busy_links(f, c2).count(directed_link(failed, true)), 0u);
    auto d2 = diagnose(f, c2, DiagnoseOptions{});
    ASSERT_TRUE(d2.ok());
    bool named = false;
    for (const GroupDiagnosis& g : d2->groups) {
      if (g.imbalanced && g.sw == hops[1].from) {
        EXPECT_EQ(g.cause, Cause::kFailedMember) << g.explanation;
        named = g.cause == Cause::kFailedMember && g.explanation.find(f.topology().link_name(failed)) != std::string::npos;
      }
    }
    EXPECT_TRUE(named);
  }
  // The guards removed everything.
  for (const char* run : {"-a-", "-b-"}) {
    auto left = lab_down("ctlab-" + std::to_string(getpid()) + run);
    ASSERT_TRUE(left.ok()) << format_diagnostics(left.errors());
    EXPECT_TRUE(left->empty());
  }
}

// Every group diagnose calls degraded, as "switch: cause".
std::vector<std::string> degraded_groups(const Fabric& f, const Diagnosis& d) {
  std::vector<std::string> out;
  for (const GroupDiagnosis& g : d.groups) {
    if (g.imbalanced && g.cause == Cause::kDegradedMember) out.push_back(f.topology().vertex_name(g.sw) + ": " + g.explanation);
  }
  return out;
}

// The up link `sw` sends a flow over, in walker `w`'s model (an invalid id when it does not cross sw).
LinkId uplink_at(const PathWalker& w, const LabFlow& x, VertexId sw) {
  std::vector<PathHop> hops;
  w.walk(x.src, x.dst, x.key, hops);
  for (const PathHop& h : hops) {
    if (h.from == sw && h.up) return h.link;
  }
  return LinkId(0xFFFFFFFFu);
}

// Flow src host -> dst host with the first source port from 40000 that `fits` (fixture search).
template <class Fits>
LabFlow search_flow(const Topology& t, int src, int dst, Fits&& fits) {
  LabFlow f;
  f.src = t.port_of(HostId(src), 0, 0);
  f.dst = t.port_of(HostId(dst), 0, 0);
  f.key.src_ip = port_address(t, f.src);
  f.key.dst_ip = port_address(t, f.dst);
  f.key.protocol = kIpProtoUdp;
  f.key.dst_port = 9;
  for (int port = 40000; port < 65536; ++port) {
    f.key.src_port = static_cast<std::uint16_t>(port);
    if (fits(f)) return f;
  }
  ADD_FAILURE() << "no source port fits";
  return f;
}

TEST(LabDataPlane, AFailedOrRateLimitedMemberIsBlamedAloneNotTheHealthyLinksAfterIt) {
  if (const std::string why = lab_unavailable(); !why.empty()) GTEST_SKIP() << why;
  const Fabric f = fabric_from("examples/lab/fat-tree-4-per-switch.yaml");
  const Topology& t = f.topology();
  auto vertex = [&](const std::string& name) { return f.names().vertex(name, {}, "test").value(); };
  const VertexId leaf0 = vertex("p0/pod0/leaf/0"), leaf1 = vertex("p0/pod0/leaf/1");
  const VertexId spine0 = vertex("p0/pod0/spine/0"), spine1 = vertex("p0/pod0/spine/1");
  LinkId u;
  for (const Adjacency& a : t.neighbors(leaf0)) {
    if (a.neighbor == spine0) u = a.link;
  }
  const std::vector<LinkId> down{u};
  const ForwardingState without_u(t, down);
  const PathWalker rerouted(without_u, f.hashes());
  const PathWalker& w = f.walker();
  const LabFlow f2 = search_flow(t, 1, 5, [&](const LabFlow& x) { return t.other_end(uplink_at(w, x, leaf0), leaf0) == spine1; });
  const LinkId b = uplink_at(w, f2, spine1);
  const LabFlow f4 = search_flow(t, 3, 7, [&](const LabFlow& x) {
    return t.other_end(uplink_at(w, x, leaf1), leaf1) == spine1 && uplink_at(w, x, spine1) != b;
  });
  const LabFlow f1 = search_flow(t, 0, 4, [&](const LabFlow& x) { return uplink_at(w, x, leaf0) == u && uplink_at(rerouted, x, spine1) == b; });
  const LinkId a = uplink_at(w, f1, spine0);
  const LabFlow f3 = search_flow(t, 2, 6, [&](const LabFlow& x) {
    return t.other_end(uplink_at(w, x, leaf1), leaf1) == spine0 && uplink_at(w, x, spine0) != a;
  });
  const std::vector<LabFlow> fl{f1, f2, f3, f4};
  for (const bool fail : {true, false}) {
    SCOPED_TRACE(fail ? "U down" : "U rate-limited");
    const std::string prefix = "ctlab-" + std::to_string(getpid()) + (fail ? "-c-" : "-d-");
    LabGuard guard(prefix);
    auto plan = plan_lab(f, prefix);
    ASSERT_TRUE(plan.ok()) << format_diagnostics(plan.errors());
    auto up = lab_up(plan.value());
    ASSERT_TRUE(up.ok()) << format_diagnostics(up.errors());
    if (fail) {
      ASSERT_TRUE(lab_fail_link(plan.value(), u).ok());
    } else {
      const auto burst = static_cast<std::uint64_t>(0.4 * kPackets * (kPayload + 28 + 14));
      auto limited = lab_limit_link(plan.value(), u, leaf0, 1'000'000, burst);
      ASSERT_TRUE(limited.ok()) << format_diagnostics(limited.errors());
    }
    const Counters c = counters_of(f, plan.value(), send_and_scrape(plan.value(), f, fl));
    auto d = diagnose(f, c, DiagnoseOptions{});
    ASSERT_TRUE(d.ok());
    const std::vector<std::string> degraded = degraded_groups(f, d.value());
    bool named = false, few = false;
    for (const GroupDiagnosis& g : d->groups) {
      if (g.imbalanced && g.sw == leaf0) {
        EXPECT_EQ(g.cause, fail ? Cause::kFailedMember : Cause::kDegradedMember) << g.explanation;
        named = g.explanation.find(t.link_name(u)) != std::string::npos;
      }
      if (g.imbalanced && g.sw == spine0 && g.up) few = g.cause == Cause::kFewFlows;
    }
    EXPECT_TRUE(named);
    if (fail) {
      EXPECT_TRUE(few);
      EXPECT_TRUE(degraded.empty()) << ::testing::PrintToString(degraded);
    } else {
      ASSERT_EQ(degraded.size(), 1u) << ::testing::PrintToString(degraded);
      EXPECT_EQ(degraded[0].find(t.vertex_name(leaf0) + ": "), 0u) << degraded[0];
    }
  }
  auto left = lab_down("ctlab-" + std::to_string(getpid()) + "-");
  ASSERT_TRUE(left.ok()) << format_diagnostics(left.errors());
  EXPECT_TRUE(left->empty());
}

}  // namespace
}  // namespace ct
