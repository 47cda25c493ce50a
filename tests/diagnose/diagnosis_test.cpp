// The classification of diagnose on synthetic counters, each case worked by hand.
//
// Fixtures: examples/lab/leaf-spine-4.yaml (2-tier fat tree k = 8: leaf p0/leaf/0 holds hosts 0-3,
// p0/leaf/1 hosts 4-7, every leaf a 4-way up group to p0/spine/0..3) and examples/lab/fat-tree-4.yaml
// (3-tier k = 4: 2-way groups at the edge and the aggregation tier). Links are 100G. Counters are
// two scrapes 10 s apart, so a member at R Gb/s has counted R x 10 / 8 GB.
//
// 1. A 2-member group at 100/0 with 2 known flows that the model puts on the busy member:
//    2 flows on 2 members collide with P = 1 - 2!/(0! 2^2) = 1/2: bad luck, not a fault; the
//    group averages 50%, under an 80% alarm, while its busy member runs at 100%.
// 2. The same counters, but the model puts one of the flows on the idle member: its flows went
//    elsewhere, so the member failed.
// 3. A 4-member group at 80/40/40/0 Gb/s carrying 4 flows of 40 Gb/s placed 2/1/1/0 by the model:
//    P(any collision) = 1 - 4!/4^4 = 1 - 24/256 = 232/256 = 0.90625 (the pattern 2/1/1/0 itself:
//    4 (who gets 2) x 3 (who gets 0) x C(4,2) = 6 (which pair) x 2 (the other two) = 144/256 =
//    0.5625); Jain = (80+40+40+0)^2 / (4 (80^2+40^2+40^2)) = 25600/38400 = 2/3; one idle member;
//    the group's mean is 40% while its busiest member is at 80%. All flows reached 40 Gb/s, so the
//    throughput witness disagrees: the collision cost nothing at this load.
// 4. Polarization in the 3-tier fat tree with one seed: an aggregation switch reached over edge
//    member j hashes the same 31-bit value with the same hash-threshold split, so it picks member j
//    again: 1 of its 2 core uplinks is reachable; counters with that uplink busy and its twin at
//    zero are polarization, and per-switch seeds make both reachable.
// 5. A degraded member: the 4-member group at 40/40/40/20 Gb/s with 4 flows the model places
//    1/1/1/1. Per flow the members carry 40, 40, 40 and 20 Gb/s; the others' median is 40 and
//    20 < 0.6 x 40 = 24, so member 3 is degraded (up: it carries traffic; slow: half speed or
//    errors), not failed, though no member is idle. Jain = 140^2 / (4 (3 x 40^2 + 20^2)) =
//    19600 / 20800 = 0.942308. The same flows with member 3 at 0 are a failed member (the model
//    loads a member whose counters are zero), and at 30 Gb/s (30 >= 24) the group is balanced
//    enough to be no case at all (no idle, no degraded member).
// 6. Missing entropy: case 1's counters with the two flows given the same 5-tuple (host 0 to
//    host 2, one source port). Both hash the same key, so the model puts both on member 0, which
//    is busy: the oracle agrees, no member is idle in the model's view, the leaf has no feeder
//    (no polarization), and 2 of the 2 flows share a key. With distinct keys 2 flows on 2 members
//    would still collide with P = 1 - 2!/(0! 2^2) = 0.5.
// 7. Fewer flows than members (issue 22, item 13): the 4-member group at 40/40/0/0 Gb/s with 2 flows
//    the model places 1/1/0/0. No two flows share a member, so there is no collision to call bad
//    luck (P(any collision) of 2 flows on 4 would be 1 - 4x3/16 = 0.25, but none happened): the
//    verdict is "fewer flows than members", and the throughput witness, whose evidence is that no
//    two flows share a member, agrees with it. Case 3's bad luck keeps its verdict against the
//    throughput witness (the collision cost nothing at 40 Gb/s) and says so.
// 8. Twin cables (examples/twin-uplinks.yaml: each rail leaf has two cables to the one spine): the
//    members of p0/leaf/0's up group are the two cables to p0/spine/0, which the name directory
//    names "p0/leaf/0 -- p0/spine/0 #0" and "#1" (their places among the two, from 0, as the port
//    map's cable column counts them). With #0 at 100 Gb/s and #1 at 0, the verdict's words ("no
//    alarm watches for a member at zero: ...") and the JSON's members name the idle one "#1", and
//    each JSON name reads back through the directory to its own member; the bare
//    "p0/leaf/0 -- p0/spine/0" they printed before named both. The text's members table names
//    them "p0/spine/0 #0" and "#1" (the far end and the same k), the idle one IDLE.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "diagnose/counter_inputs.h"
#include "diagnose/diagnosis.h"
#include "io/loaders.h"
#include "report/diagnose_report.h"
#include "routing/port_address.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/test_paths.h"

namespace ct {
namespace {

const Catalog& catalog() {
  static const Catalog c = load_catalog(ct::testing_support::source_dir() + "/catalog").value();
  return c;
}

Fabric fabric_of(const std::string& relative) {
  std::ifstream in(ct::testing_support::source_dir() + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  auto valid = validate_reading(read_spec(relative, s.str()), catalog());
  EXPECT_TRUE(valid.ok());
  auto f = build_fabric(valid.value(), catalog());
  EXPECT_TRUE(f.ok()) << format_diagnostics(f.errors());
  return std::move(f).value();
}

struct Member {
  std::string peer;
  double gbps;
  int cable = -1;  // which of parallel cables to the peer (the map's cable column); -1: none written
};

// Two scrapes of switch `sw`'s transmit counters, 10 s apart, one interface per member, and the map.
CounterInputs switch_counters(const std::string& sw, const std::vector<Member>& members) {
  CounterInputs in;
  std::string a, b, map;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::string series = "ifHCOutOctets{instance=\"" + sw + "\",ifName=\"swp" + std::to_string(i + 1) + "\"} ";
    const auto bytes = static_cast<unsigned long long>(members[i].gbps * 1e9 * 10 / 8);
    a += series + "1000 0\n";
    b += series + std::to_string(1000 + bytes) + " 10000\n";
    map += sw + ",swp" + std::to_string(i + 1) + "," + sw + "," + members[i].peer +
           (members[i].cable < 0 ? "" : "," + std::to_string(members[i].cable)) + "\n";
  }
  in.scrapes = {{"t0.prom", a}, {"t1.prom", b}};
  in.map = TextInput{"map.csv", map};
  return in;
}

std::string flow_line(const Topology& t, int src_host, int dst_host, int sport, double gbps) {
  return format_ipv4(port_address(t, t.port_of(HostId(src_host), 0, 0))) + "," +
         format_ipv4(port_address(t, t.port_of(HostId(dst_host), 0, 0))) + ",udp," + std::to_string(sport) + ",4791," +
         std::to_string(gbps * 1e9) + "\n";
}

// The member of `sw`'s up group the model gives a flow (fixture search, not an expectation).
std::uint32_t model_member(const Fabric& f, int src, int dst, int sport, VertexId sw) {
  const Topology& t = f.topology();
  FlowKey k;
  k.src_ip = port_address(t, t.port_of(HostId(src), 0, 0));
  k.dst_ip = port_address(t, t.port_of(HostId(dst), 0, 0));
  k.src_port = static_cast<std::uint16_t>(sport);
  std::vector<PathHop> hops;
  f.walker().walk(t.port_of(HostId(src), 0, 0), t.port_of(HostId(dst), 0, 0), k, hops);
  for (const PathHop& h : hops) {
    if (h.from == sw && h.group != kNoGroup) return h.member;
  }
  ADD_FAILURE() << "flow does not cross the switch";
  return 0;
}

// A source port >= `from` whose flow takes `member` at `sw`.
int port_for(const Fabric& f, int src, int dst, VertexId sw, std::uint32_t member, int from = 49152) {
  for (int p = from; p < 65536; ++p) {
    if (model_member(f, src, dst, p, sw) == member) return p;
  }
  ADD_FAILURE();
  return 0;
}

VertexId sw_named(const Fabric& f, const std::string& name) { return f.names().vertex(name, {}, "test").value(); }

const GroupDiagnosis* imbalanced_group(const Diagnosis& d, const Fabric& f, const std::string& sw) {
  for (const GroupDiagnosis& g : d.groups) {
    if (g.imbalanced && f.topology().vertex_name(g.sw) == sw) return &g;
  }
  return nullptr;
}

Diagnosis run(const Fabric& f, const CounterInputs& in) {
  auto c = read_counter_inputs(in, f);
  EXPECT_TRUE(c.ok()) << format_diagnostics(c.errors());
  auto d = diagnose(f, c.value(), DiagnoseOptions{});
  EXPECT_TRUE(d.ok());
  return std::move(d).value();
}

TEST(Diagnose, TwoMembersAtHundredAndZeroWithTwoCollidingFlowsIsBadLuck) {
  const Fabric f = fabric_of("examples/lab/fat-tree-4.yaml");
  const std::string leaf = "p0/pod0/leaf/0";
  const VertexId sw = sw_named(f, leaf);
  CounterInputs in = switch_counters(leaf, {{"p0/pod0/spine/0", 100}, {"p0/pod0/spine/1", 0}});
  const int p0 = port_for(f, 0, 2, sw, 0), p1 = port_for(f, 1, 3, sw, 0);
  in.flows = {{"flows.csv", flow_line(f.topology(), 0, 2, p0, 50) + flow_line(f.topology(), 1, 3, p1, 50)}};
  const Diagnosis d = run(f, in);
  const GroupDiagnosis* g = imbalanced_group(d, f, leaf);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kBadLuck);
  EXPECT_DOUBLE_EQ(g->probability, 0.5);
  EXPECT_DOUBLE_EQ(g->jain, 0.5);  // (100)^2 / (2 x 100^2)
  EXPECT_EQ(g->idle, 1u);
  ASSERT_EQ(g->witnesses.size(), 4u);
  EXPECT_EQ(g->witnesses[0].state, WitnessState::kAgrees);
  EXPECT_EQ(g->witnesses[1].state, WitnessState::kMissing);  // no host counters given
  EXPECT_EQ(g->witnesses[2].state, WitnessState::kAgrees);   // the model loads member 0 only
  EXPECT_EQ(g->witnesses[3].state, WitnessState::kAgrees);   // sharing a saturated member
  ASSERT_FALSE(g->green.empty());
  EXPECT_NE(g->green[0].find("average utilization is 50% (alarm at 80%)"), std::string::npos) << g->green[0];
}

TEST(Diagnose, TheModelLoadingAnIdleMemberNamesAFailure) {
  const Fabric f = fabric_of("examples/lab/fat-tree-4.yaml");
  const std::string leaf = "p0/pod0/leaf/0";
  const VertexId sw = sw_named(f, leaf);
  CounterInputs in = switch_counters(leaf, {{"p0/pod0/spine/0", 100}, {"p0/pod0/spine/1", 0}});
  const int p0 = port_for(f, 0, 2, sw, 0), p1 = port_for(f, 1, 3, sw, 1);
  in.flows = {{"flows.csv", flow_line(f.topology(), 0, 2, p0, 50) + flow_line(f.topology(), 1, 3, p1, 50)}};
  const Diagnosis d = run(f, in);
  const GroupDiagnosis* g = imbalanced_group(d, f, leaf);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kFailedMember);
  EXPECT_NE(g->explanation.find("p0/pod0/leaf/0 -- p0/pod0/spine/1"), std::string::npos) << g->explanation;
  EXPECT_EQ(g->witnesses[2].state, WitnessState::kDisagrees);
}

// leaf-spine-4's p0/leaf/0 with four known 40 Gb/s flows on members 0, 0, 1, 2 (2/1/1/0) and
// counters that agree (80/40/40/0): a collision the hash made, with one member idle.
Diagnosis two_one_one_zero(const Fabric& f, const std::string& leaf) {
  const VertexId sw = sw_named(f, leaf);
  CounterInputs in = switch_counters(leaf, {{"p0/spine/0", 80}, {"p0/spine/1", 40}, {"p0/spine/2", 40}, {"p0/spine/3", 0}});
  const std::uint32_t members[] = {0, 0, 1, 2};
  std::string flows;
  for (int h = 0; h < 4; ++h) flows += flow_line(f.topology(), h, 4 + h, port_for(f, h, 4 + h, sw, members[h]), 40);
  in.flows = {{"flows.csv", flows}};
  return run(f, in);
}

TEST(Diagnose, FourMembersAtTwoOneOneZeroIsBadLuckWithItsBirthdayProbability) {
  const Fabric f = fabric_of("examples/lab/leaf-spine-4.yaml");
  const std::string leaf = "p0/leaf/0";
  const Diagnosis d = two_one_one_zero(f, leaf);
  const GroupDiagnosis* g = imbalanced_group(d, f, leaf);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kBadLuck);
  EXPECT_NEAR(g->probability, 232.0 / 256.0, 1e-12);
  EXPECT_NEAR(g->jain, 2.0 / 3.0, 1e-9);
  EXPECT_EQ(g->idle, 1u);
  EXPECT_EQ(g->flows, 4u);
  EXPECT_EQ(g->members[0].predicted_flows, 2);
  EXPECT_EQ(g->members[3].predicted_flows, 0);
  EXPECT_EQ(g->witnesses[2].state, WitnessState::kAgrees);
  EXPECT_EQ(g->witnesses[3].state, WitnessState::kDisagrees);  // 40 Gb/s shared and alone
  EXPECT_NE(g->green[0].find("average utilization is 40% (alarm at 80%) while its busiest member runs at 80%"),
            std::string::npos)
      << g->green[0];
}

TEST(Diagnose, TwoFlowsOnFourMembersEachAloneAreNoCollision) {
  const Fabric f = fabric_of("examples/lab/leaf-spine-4.yaml");
  const std::string leaf = "p0/leaf/0";
  const VertexId sw = sw_named(f, leaf);
  CounterInputs in = switch_counters(leaf, {{"p0/spine/0", 40}, {"p0/spine/1", 40}, {"p0/spine/2", 0}, {"p0/spine/3", 0}});
  in.flows = {{"flows.csv", flow_line(f.topology(), 0, 4, port_for(f, 0, 4, sw, 0), 40) +
                                flow_line(f.topology(), 1, 5, port_for(f, 1, 5, sw, 1), 40)}};
  const Diagnosis d = run(f, in);
  const GroupDiagnosis* g = imbalanced_group(d, f, leaf);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kFewFlows) << g->explanation;
  EXPECT_EQ(g->probability, -1);
  EXPECT_EQ(g->idle, 2u);
  EXPECT_EQ(g->witnesses[2].state, WitnessState::kAgrees);
  EXPECT_EQ(g->witnesses[3].state, WitnessState::kAgrees) << g->witnesses[3].evidence;
  EXPECT_EQ(g->witnesses[3].evidence, "no two known flows share a member in the model");
  EXPECT_EQ(g->explanation.find("2 known flows on 4 members (1/1/0/0): no two share a member, so there is no collision"), 0u)
      << g->explanation;
  EXPECT_EQ(g->explanation.find("overrules"), std::string::npos) << g->explanation;
}

TEST(Diagnose, BadLuckSaysWhichWitnessItOverrulesAndWhy) {
  const Fabric f = fabric_of("examples/lab/leaf-spine-4.yaml");
  const std::string leaf = "p0/leaf/0";
  const Diagnosis d = two_one_one_zero(f, leaf);
  const GroupDiagnosis* g = imbalanced_group(d, f, leaf);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kBadLuck);
  EXPECT_EQ(g->witnesses[3].state, WitnessState::kDisagrees);
  EXPECT_NE(g->explanation.find("this overrules the flow throughput witness, which disagrees: the flows on the shared member "
                                "lost nothing at this load"),
            std::string::npos)
      << g->explanation;
}

TEST(Diagnose, OneSeedAcrossTiersIsPolarization) {
  const Fabric f = fabric_of("examples/lab/fat-tree-4.yaml");
  const std::string agg = "p0/pod0/spine/0";
  // Which core uplink of agg 0 is reachable: agg 0 is entered over edge member 0, so the hash lies
  // in the lower half and the aggregation switch picks its member 0 (p0/core/0) as well.
  CounterInputs in = switch_counters(agg, {{"p0/core/0", 100}, {"p0/core/1", 0}});
  const VertexId edge = sw_named(f, "p0/pod0/leaf/0");
  const int p0 = port_for(f, 0, 4, edge, 0), p1 = port_for(f, 1, 5, edge, 0);
  in.flows = {{"flows.csv", flow_line(f.topology(), 0, 4, p0, 50) + flow_line(f.topology(), 1, 5, p1, 50)}};
  const Diagnosis d = run(f, in);
  const GroupDiagnosis* g = imbalanced_group(d, f, agg);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kPolarization);
  EXPECT_TRUE(g->members[0].reachable);
  EXPECT_FALSE(g->members[1].reachable);
  EXPECT_NE(g->explanation.find("only 1 of 2 members"), std::string::npos) << g->explanation;
  EXPECT_NE(g->fix.find("per-switch"), std::string::npos);
}

CounterInputs four_flows_one_each(const Fabric& f, double last_gbps) {
  const std::string leaf = "p0/leaf/0";
  const VertexId sw = sw_named(f, leaf);
  CounterInputs in =
      switch_counters(leaf, {{"p0/spine/0", 40}, {"p0/spine/1", 40}, {"p0/spine/2", 40}, {"p0/spine/3", last_gbps}});
  std::string flows;
  for (int h = 0; h < 4; ++h) {
    flows += flow_line(f.topology(), h, 4 + h, port_for(f, h, 4 + h, sw, static_cast<std::uint32_t>(h)), 40);
  }
  in.flows = {{"flows.csv", flows}};
  return in;
}

TEST(Diagnose, AMemberAtHalfItsRatePerFlowIsDegradedNotFailed) {
  const Fabric f = fabric_of("examples/lab/leaf-spine-4.yaml");
  const Diagnosis d = run(f, four_flows_one_each(f, 20));
  const GroupDiagnosis* g = imbalanced_group(d, f, "p0/leaf/0");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kDegradedMember) << g->explanation;
  EXPECT_EQ(g->idle, 0u);
  EXPECT_EQ(g->degraded, 1u);
  EXPECT_TRUE(g->members[3].degraded);
  EXPECT_FALSE(g->members[0].degraded);
  EXPECT_NEAR(g->members[3].per_flow_bps, 20e9, 1e3);
  EXPECT_NEAR(g->degraded_reference_bps, 40e9, 1e3);
  EXPECT_NEAR(g->jain, 19600.0 / 20800.0, 1e-9);
  EXPECT_NE(g->explanation.find("p0/leaf/0 -- p0/spine/3"), std::string::npos) << g->explanation;
  EXPECT_NE(g->fix.find("negotiated speed"), std::string::npos) << g->fix;
  EXPECT_EQ(g->witnesses[2].state, WitnessState::kAgrees);     // the model loads every member 1/1/1/1
  EXPECT_EQ(g->witnesses[3].state, WitnessState::kDisagrees);  // the flows CSV says all reached 40 Gb/s
}

TEST(Diagnose, TheSameMemberAtZeroIsFailedAndAtThreeQuartersIsNoCase) {
  const Fabric f = fabric_of("examples/lab/leaf-spine-4.yaml");
  const Diagnosis zero = run(f, four_flows_one_each(f, 0));
  const GroupDiagnosis* g = imbalanced_group(zero, f, "p0/leaf/0");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kFailedMember) << g->explanation;
  EXPECT_EQ(g->degraded, 0u);
  const Diagnosis mild = run(f, four_flows_one_each(f, 30));
  EXPECT_EQ(imbalanced_group(mild, f, "p0/leaf/0"), nullptr);
}

TEST(Diagnose, TwoFlowsWithOneKeyAreMissingEntropy) {
  const Fabric f = fabric_of("examples/lab/fat-tree-4.yaml");
  const std::string leaf = "p0/pod0/leaf/0";
  const VertexId sw = sw_named(f, leaf);
  CounterInputs in = switch_counters(leaf, {{"p0/pod0/spine/0", 100}, {"p0/pod0/spine/1", 0}});
  const int p0 = port_for(f, 0, 2, sw, 0);
  in.flows = {{"flows.csv", flow_line(f.topology(), 0, 2, p0, 50) + flow_line(f.topology(), 0, 2, p0, 50)}};
  const Diagnosis d = run(f, in);
  const GroupDiagnosis* g = imbalanced_group(d, f, leaf);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->cause, Cause::kMissingEntropy) << g->explanation;
  EXPECT_DOUBLE_EQ(g->probability, 0.5);
  EXPECT_EQ(g->flows, 2u);
  EXPECT_EQ(g->witnesses[2].state, WitnessState::kAgrees);
  EXPECT_EQ(g->witnesses[3].state, WitnessState::kAgrees);  // both share a saturated member
  EXPECT_EQ(g->explanation.find("2 of the 2 known flows through p0/pod0/leaf/0 hash the same key"), 0u) << g->explanation;
  EXPECT_NE(g->fix.find("use 4 QPs per connection so each connection has 4 source ports"), std::string::npos) << g->fix;
  EXPECT_EQ(g->predicted, "with distinct keys 2 flows on 2 members still collide with probability 0.500");
}

TEST(Diagnose, UnmappedSeriesAreListedNotGuessed) {
  const Fabric f = fabric_of("examples/lab/leaf-spine-4.yaml");
  CounterInputs in = switch_counters("p0/leaf/0", {{"p0/spine/0", 10}, {"p0/spine/1", 10}});
  in.scrapes[0].text += "ifHCOutOctets{instance=\"mystery\",ifName=\"eth9\"} 0 0\n";
  in.scrapes[1].text += "ifHCOutOctets{instance=\"mystery\",ifName=\"eth9\"} 5 10000\n";
  const Diagnosis d = run(f, in);
  ASSERT_EQ(d.unmapped.size(), 1u);
  EXPECT_EQ(d.unmapped[0], "mystery eth9");
  EXPECT_EQ(d.imbalanced(), 0u);
}

TEST(Diagnose, MapErrorsAreLocatedWithDidYouMean) {
  const Fabric f = fabric_of("examples/lab/leaf-spine-4.yaml");
  const auto m = read_port_map_csv("instance,device,vertex,peer\nsw,swp1,p0/leaf/0,p0/spien/1\n", "map.csv", f.names());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.errors()[0].where.line, 2);
  EXPECT_NE(m.errors()[0].message.find("p0/spine/1"), std::string::npos) << m.errors()[0].message;
}

TEST(Diagnose, TwinMembersAreNamedAsTheNameDirectoryNamesThem) {
  const Fabric f = fabric_of("examples/twin-uplinks.yaml");
  const CounterInputs in = switch_counters("p0/leaf/0", {{"p0/spine/0", 100, 0}, {"p0/spine/0", 0, 1}});
  const Diagnosis d = run(f, in);
  const GroupDiagnosis* g = imbalanced_group(d, f, "p0/leaf/0");
  ASSERT_NE(g, nullptr);
  const std::string zero = "no alarm watches for a member at zero: p0/leaf/0 -- p0/spine/0 #1";
  EXPECT_TRUE(std::any_of(g->green.begin(), g->green.end(), [&](const std::string& x) { return x == zero; }))
      << ::testing::PrintToString(g->green);
  const auto j = nlohmann::json::parse(to_json(d, f.names()));
  const nlohmann::json* members = nullptr;
  for (const auto& jg : j["groups"]) {
    if (jg["switch"] == "p0/leaf/0" && jg["direction"] == "up") members = &jg["members"];
  }
  ASSERT_NE(members, nullptr);
  ASSERT_EQ(members->size(), 2U);
  EXPECT_EQ((*members)[0]["link"], "p0/leaf/0 -- p0/spine/0 #0");
  EXPECT_EQ((*members)[1]["link"], "p0/leaf/0 -- p0/spine/0 #1");
  for (std::size_t i = 0; i < 2; ++i) {
    const auto back = f.names().links((*members)[i]["link"].get<std::string>(), {}, "test");
    ASSERT_TRUE(back.ok());
    ASSERT_EQ(back->size(), 1U);
    EXPECT_EQ(back->front(), g->members[i].link);
  }
  // The text's members table tells the twins apart the same way: "p0/spine/0 #0" busy, "#1" idle.
  const std::string table = diagnose_members_table(*g, f.topology()).render();
  EXPECT_NE(table.find("p0/spine/0 #0"), std::string::npos) << table;
  EXPECT_NE(table.find("p0/spine/0 #1"), std::string::npos) << table;
  const std::string text = to_text(d, f.topology());
  const std::size_t idle = text.find("p0/spine/0 #1");
  ASSERT_NE(idle, std::string::npos) << text;
  EXPECT_NE(text.substr(idle, text.find('\n', idle) - idle).find("IDLE"), std::string::npos) << text;
}

}  // namespace
}  // namespace ct
