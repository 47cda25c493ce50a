// Routing engines and checks on fabrics small enough to work by hand.
#include <gtest/gtest.h>

#include "ib/ib_checks.h"
#include "ib/ibnetdiscover.h"
#include "ib/subnet_manager.h"
#include "ib/switch_graph.h"

#include "support/ib_fixtures.h"

namespace ct {
namespace {

// 2 leaves x 2 spines: L1 ports 1,2 -> H1,H2, port 3 -> S1, port 4 -> S2; L2 ports 1,2 -> H3,H4,
// 3 -> S1, 4 -> S2; S1 and S2 port 1 -> L1, port 2 -> L2.
// GUIDs as ibsim gives them (no GUID lines): switches 0x200000.., CAs 0x100000.. (port GUID +1).
// LIDs in port GUID order (LMC 0): H1 1, H2 2, H3 3, H4 4, L1 5, L2 6, S1 7, S2 8.
constexpr const char* kTwoByTwo = fixtures::kIbTwoByTwo;

constexpr std::uint8_t X = IbRouting::kNoPath;

IbFabric fabric_of(std::string_view text) {
  auto parsed = parse_ibnetdiscover(text, "test.net");
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : format_diagnostics(parsed.errors()));
  return parsed.ok() ? std::move(parsed).value() : IbFabric{};
}

IbRouting route(const IbFabric& f, IbEngine engine, int lmc = 0) {
  IbRoutingOptions options;
  options.engine = engine;
  options.lmc = lmc;
  options.threads = 2;
  auto r = route_fabric(f, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  return r.ok() ? std::move(r).value() : IbRouting{};
}

// LFT of switch s for LIDs 1..expected.size().
void expect_lft(const IbRouting& r, std::uint32_t s, const std::vector<std::uint8_t>& expected) {
  for (std::uint32_t lid = 1; lid <= expected.size(); ++lid) {
    EXPECT_EQ(int{r.port(s, lid)}, int{expected[lid - 1]}) << "switch " << s << " LID " << lid;
  }
}

TEST(MinHop, TwoByTwoLftsWorkedByHand) {
  // Destinations in OpenSM order: H1, H2 (L1), H3, H4 (L2), then the switch LIDs 5-8. Each switch
  // counts CA paths per port and takes the least used min-hop port, ties to the lowest port:
  //   L1: H3 -> 3 (S1), H4 -> 4 (S2); L2 (switch LID) -> 3 (counts tie 1:1); S1 -> 3; S2 -> 4.
  //   S1: H1, H2 -> 1; H3, H4 -> 2; S2 is 2 hops away via L1 (port 1) or L2 (port 2): tie -> 1.
  //   LFT[LID 1..8]  L1 = 1 2 3 4 0 3 3 4   L2 = 3 4 1 2 3 0 3 4
  //                  S1 = 1 1 2 2 1 2 0 1   S2 = 1 1 2 2 1 2 1 0
  const IbRouting r = route(fabric_of(kTwoByTwo), IbEngine::kMinHop);
  expect_lft(r, 0, {1, 2, 3, 4, 0, 3, 3, 4});
  expect_lft(r, 1, {3, 4, 1, 2, 3, 0, 3, 4});
  expect_lft(r, 2, {1, 1, 2, 2, 1, 2, 0, 1});
  expect_lft(r, 3, {1, 1, 2, 2, 1, 2, 1, 0});
}

TEST(UpDown, TwoByTwoForbidsTheSpineToSpineDetour) {
  // Roots detected: S1, S2 (farthest from the leaves). Key order (rank, GUID): S1, S2, L1, L2.
  // CA LIDs route as minhop (every min-hop path is up then down). Spine-to-spine LIDs would need
  // down (S2 -> L1) then up (L1 -> S1): illegal, so S1 has no route to S2 and S2 none to S1 (as
  // OpenSM's updn without connect_roots). L2 -> L1's LID goes up to S1 (port 3).
  //   LFT[LID 1..8]  L1 = 1 2 3 4 0 3 3 4   L2 = 3 4 1 2 3 0 3 4
  //                  S1 = 1 1 2 2 1 2 0 X   S2 = 1 1 2 2 1 2 X 0
  const IbRouting r = route(fabric_of(kTwoByTwo), IbEngine::kUpDown);
  expect_lft(r, 0, {1, 2, 3, 4, 0, 3, 3, 4});
  expect_lft(r, 1, {3, 4, 1, 2, 3, 0, 3, 4});
  expect_lft(r, 2, {1, 1, 2, 2, 1, 2, 0, X});
  expect_lft(r, 3, {1, 1, 2, 2, 1, 2, X, 0});
}

TEST(FatTree, TwoByTwoBalancesDestinationsOverSpines) {
  // Leaf L1 routes H1 then H2 up the least-loaded up group: H1 -> S1, H2 -> S2; L2: H3 -> S1,
  // H4 -> S2. The spine of a destination's main path is the one every other leaf goes up to:
  // L2 sends H1 (LID 1) to port 3 (S1) and H2 (LID 2) to port 4 (S2); L1 sends H3 to 3, H4 to 4.
  // Both spines route every CA LID straight down. Switch LIDs by up/down as above.
  //   LFT[LID 1..8]  L1 = 1 2 3 4 0 3 3 4   L2 = 3 4 1 2 3 0 3 4
  //                  S1 = 1 1 2 2 1 2 0 X   S2 = 1 1 2 2 1 2 X 0
  const IbRouting r = route(fabric_of(kTwoByTwo), IbEngine::kFatTree);
  expect_lft(r, 0, {1, 2, 3, 4, 0, 3, 3, 4});
  expect_lft(r, 1, {3, 4, 1, 2, 3, 0, 3, 4});
  expect_lft(r, 2, {1, 1, 2, 2, 1, 2, 0, X});
  expect_lft(r, 3, {1, 1, 2, 2, 1, 2, X, 0});
}

TEST(FatTree, RefusesAFabricWithAMissingCable) {
  // Without L2-S2 the leaves differ in up port groups (2 vs 1): with no root file OpenSM's ftree
  // refuses (ERR AB09) and so do we.
  IbFabric f = fabric_of(kTwoByTwo);
  f.disconnect(IbNodeId(1U), 4);
  IbRoutingOptions options;
  options.engine = IbEngine::kFatTree;
  auto r = route_fabric(f, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("not a fat tree"), std::string::npos);
  EXPECT_NE(r.errors()[0].message.find("up port groups"), std::string::npos) << r.errors()[0].message;
  // With the roots named, ftree (as OpenSM's without validation) routes around it.
  options.roots = {IbNodeId(2U), IbNodeId(3U)};
  auto with_roots = route_fabric(f, options);
  ASSERT_TRUE(with_roots.ok());
  EXPECT_TRUE(check_reachability(f, with_roots.value()).ok());
  EXPECT_TRUE(check_credit_loops(f, with_roots.value()).ok());
  // minhop and updn route around it: everything still reachable.
  for (const IbEngine e : {IbEngine::kMinHop, IbEngine::kUpDown}) {
    const IbRouting routed = route(f, e);
    EXPECT_TRUE(check_reachability(f, routed).ok()) << to_string(e);
    // L2 now reaches H1 and H2 only through S1 (port 3).
    EXPECT_EQ(routed.port(1, 1), 3);
    EXPECT_EQ(routed.port(1, 2), 3);
  }
}

TEST(FatTree, MissingHostsAreRoutedAsDummies) {
  // H4 unplugged: L2 has one CN, L1 two. L2 routes H3 (-> S1) and one dummy (counts S2), so the
  // pattern stays that of the full tree; every remaining pair is reachable.
  IbFabric f = fabric_of(kTwoByTwo);
  f.disconnect(IbNodeId(7U), 1);
  const IbRouting r = route(f, IbEngine::kFatTree);
  EXPECT_TRUE(check_reachability(f, r).ok());
  EXPECT_TRUE(check_credit_loops(f, r).ok());
  EXPECT_EQ(r.port(1, 1), 3);  // H1 via S1
  EXPECT_EQ(r.port(1, 2), 4);  // H2 via S2
  EXPECT_EQ(r.port(0, 3), 3);  // H3 via S1
}

TEST(Checks, TwoByTwoIsReachableLoopFreeAndBalanced) {
  // 4 CA sources x (4 CA LIDs - own) = 12 pairs. Each leaf uplink carries one remote destination.
  const IbFabric f = fabric_of(kTwoByTwo);
  const IbRouting r = route(f, IbEngine::kFatTree);
  const auto reach = check_reachability(f, r);
  EXPECT_EQ(reach.pairs, 12U);
  EXPECT_EQ(reach.unreachable, 0U);
  const auto loops = check_credit_loops(f, r);
  EXPECT_TRUE(loops.ok());
  EXPECT_EQ(loops.channels, 8U);
  // Dependencies (leaf->spine then spine->leaf), one per (leaf, remote destination) pair's path:
  // L1->S1->L2 (H3), L1->S2->L2 (H4), L2->S1->L1 (H1), L2->S2->L1 (H2).
  EXPECT_EQ(loops.dependencies, 4U);
  const SwitchGraph graph(f);
  const auto balance = uplink_balance(f, r, rank_switches(f, graph, {}));
  ASSERT_EQ(balance.size(), 1U);
  EXPECT_EQ(balance[0].rank, 1);
  EXPECT_EQ(balance[0].uplinks, 4U);
  EXPECT_EQ(balance[0].min, 1U);
  EXPECT_EQ(balance[0].max, 1U);
  EXPECT_DOUBLE_EQ(balance[0].mean, 1.0);
  // Per uplink (L1 ports 3, 4, then L2 ports 3, 4): one remote destination each.
  EXPECT_EQ(balance[0].destinations, (std::vector<std::uint32_t>{1, 1, 1, 1}));
}

TEST(Checks, TwoByTwoHopCounts) {
  // Of the 12 pairs, 4 stay on their leaf (H1<->H2, H3<->H4: 1 switch) and 8 cross leaf, spine,
  // leaf (3 switches); none crosses 0 or 2.
  const IbFabric f = fabric_of(kTwoByTwo);
  const auto reach = check_reachability(f, route(f, IbEngine::kFatTree));
  EXPECT_EQ(reach.switch_hops, (std::vector<std::size_t>{0, 4, 0, 8}));
  // Switch LIDs too (delivered at the switch itself): from each of the 4 CAs, its own leaf in 1
  // switch, each spine in 2 (leaf, spine), the other leaf in 3 (leaf, spine, leaf): 16 more pairs,
  // 4 at 1, 8 at 2, 4 at 3.
  const auto with_switches = check_reachability(f, route(f, IbEngine::kFatTree), {.include_switch_lids = true});
  EXPECT_EQ(with_switches.switch_hops, (std::vector<std::size_t>{0, 8, 8, 12}));
}

TEST(Checks, ShiftPermutationsOnTwoByTwoAreContentionFree) {
  // Shifts 1..3 of H1..H4: each crossing flow takes its own leaf uplink and spine downlink.
  const IbFabric f = fabric_of(kTwoByTwo);
  const auto report = shift_permutation_load(f, route(f, IbEngine::kFatTree), 10);
  EXPECT_EQ(report.patterns, 3U);
  EXPECT_EQ(report.worst_max_load, 1U);
  EXPECT_EQ(report.undelivered_flows, 0U);
}

TEST(Checks, UnroutedEntryIsUnreachable) {
  // Clearing L2's entry for H1 cuts H3 and H4 off from H1: 2 pairs.
  const IbFabric f = fabric_of(kTwoByTwo);
  IbRouting r = route(f, IbEngine::kMinHop);
  r.set_port(1, 1, IbRouting::kNoPath);
  const auto reach = check_reachability(f, r);
  EXPECT_EQ(reach.unreachable, 2U);
  ASSERT_FALSE(reach.examples.empty());
  EXPECT_NE(reach.examples[0].find("no LFT entry"), std::string::npos);
  // A forwarding loop: S1 sends H3 back to L1, which sends it to S1.
  IbRouting looped = route(f, IbEngine::kMinHop);
  looped.set_port(2, 3, 1);
  const auto loop = check_reachability(f, looped);
  EXPECT_EQ(loop.loops, 1U);
  EXPECT_GT(loop.unreachable, 0U);
}

constexpr const char* kRing = fixtures::kIbRing;

TEST(Checks, ClockwiseRoutesOnARingCloseACreditLoop) {
  // Route every CA LID clockwise (port 2) except at its own switch: the path to the host two hops
  // ahead uses channel X->next then next->next2, so A->B->C, B->C->D, C->D->A, D->A->B: the four
  // clockwise channels depend on each other in a cycle of length 4.
  const IbFabric f = fabric_of(kRing);
  IbRouting r = route(f, IbEngine::kMinHop);
  for (std::uint32_t s = 0; s < 4; ++s) {
    for (std::uint32_t lid = 1; lid <= 4; ++lid) r.set_port(s, lid, lid - 1 == s ? 1 : 2);  // HA..HD: LIDs 1-4
  }
  EXPECT_TRUE(check_reachability(f, r).ok());
  const auto loops = check_credit_loops(f, r);
  EXPECT_FALSE(loops.ok());
  EXPECT_EQ(loops.cycle.size(), 4U);
  // Up/down on the same ring never closes one.
  const IbRouting updn = route(f, IbEngine::kUpDown);
  EXPECT_TRUE(check_reachability(f, updn).ok());
  EXPECT_TRUE(check_credit_loops(f, updn).ok());
}

TEST(Checks, FtreeRefusesARing) {
  IbRoutingOptions options;
  options.engine = IbEngine::kFatTree;
  auto r = route_fabric(fabric_of(kRing), options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("not a fat tree"), std::string::npos);
}

TEST(Lmc, EveryLidOfAPortIsRoutedAndSpreadOverSpines) {
  // LMC 1, in port GUID order: CA ports blocks of 2 aligned to 2: H1 2-3, H2 4-5, H3 6-7, H4 8-9
  // (LID 1 stays free), then the switches 10-13. From L1 the two LIDs of H3 take different spines, as OpenSM's LMC-aware routing
  // prefers a neighbour not used yet. Pairs: 4 sources x (8 CA LIDs - 2 of their own) = 24.
  const IbFabric f = fabric_of(kTwoByTwo);
  const IbRouting r = route(f, IbEngine::kMinHop, 1);
  EXPECT_EQ(r.lids.base_lid(IbNodeId(6U), 1), 6);
  EXPECT_EQ(r.lids.base_lid(IbNodeId(0U), 0), 10);
  EXPECT_NE(r.port(0, 6), r.port(0, 7));
  const auto reach = check_reachability(f, r);
  EXPECT_EQ(reach.pairs, 24U);
  EXPECT_TRUE(reach.ok());
}

TEST(Trace, PrintsHopsLikeIbtracert) {
  const IbFabric f = fabric_of(kTwoByTwo);
  const IbRouting r = route(f, IbEngine::kFatTree);
  const Trace t = trace_route(f, r, IbNodeId(4U), 1, 3);  // H1 -> H3 (LID 3)
  ASSERT_TRUE(t.delivered) << t.problem;
  ASSERT_EQ(t.hops.size(), 5U);  // H1, L1, S1, L2, H3
  EXPECT_EQ(t.hops[1].node, IbNodeId(0U));
  EXPECT_EQ(t.hops[1].out_port, 3);
  EXPECT_EQ(t.hops[2].node, IbNodeId(2U));
  const std::string text = format_trace(f, r, t, 3);
  EXPECT_NE(text.find("From ca {0x0000000000100000} portnum 1 lid 1-1 \"host1\""), std::string::npos) << text;
  EXPECT_NE(text.find("[3] -> switch port {0x0000000000200002}[1] lid 7-7 \"spine1\""), std::string::npos) << text;
  EXPECT_NE(text.find("To ca {0x0000000000100004} portnum 1 lid 3-3 \"host3\""), std::string::npos) << text;
}

}  // namespace
}  // namespace ct
