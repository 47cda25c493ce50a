// Polarization: the same function and seed on consecutive tiers make the second decision a
// function of the first, so part of the second tier's links can never carry the traffic.
#include <gtest/gtest.h>

#include "analysis/decision_coupling.h"
#include "analysis/ecmp_monte_carlo.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/ecmp_test_support.h"
#include "support/fabric_fixtures.h"
#include "topology/builder.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using testing_support::EcmpFabric;

const DecisionStage* stage(const DecisionCoupling& c, int tier, bool up) {
  for (const DecisionStage& s : c.stages()) {
    if (s.tier == tier && s.up == up) return &s;
  }
  return nullptr;
}

// System: the 4-ary fat tree (a 2x2 Clos: edge and aggregation switches each have 2 up links).
// Flows from edge 16 (hosts 0 and 1) to pods 1 and 3. The tier-2 up stage offers the 4 up links of
// aggs 24 and 25. Same function and seed everywhere, hash-threshold over 2 members: both tiers
// pick member floor(h / 2^31) of the same h, so agg 24 only ever gets flows that then take its
// member 0, agg 25 its member 1. Expected: exactly 2 of the 4 links reachable, the tier-2 choice
// determined by the tier-1 choice, identical hashes. Per-switch seeds with an ideal keyed function
// (random): all 4 reachable, not determined. Per-switch seeds with crc32: still 2 of 4, since a CRC
// is affine and a different seed only XORs a constant into the hash.
TEST(Polarization, TwoByTwoClosUsesHalfTheSecondTier) {
  struct Case {
    HashAlgorithm a;
    SeedMode mode;
    std::uint32_t reachable;
    bool determined;
    bool same_hash;
  };
  const Case cases[] = {{HashAlgorithm::kCrc32, SeedMode::kSame, 2, true, true},
                        {HashAlgorithm::kRandom, SeedMode::kSame, 2, true, true},
                        {HashAlgorithm::kRandom, SeedMode::kPerSwitch, 4, false, false},
                        {HashAlgorithm::kCrc32, SeedMode::kPerSwitch, 2, true, false}};
  for (const Case& c : cases) {
    const EcmpFabric f(fixtures::fat_tree_4(), testing_support::config(c.a, c.mode));
    const std::vector<RouteRequest> flows = {f.request(0, 4, 0), f.request(1, 12, 0)};
    const DecisionCoupling coupling(*f.walker, flows, 9, 512);
    const DecisionStage* s = stage(coupling, 2, true);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->links_available, 4u);
    EXPECT_EQ(s->links_reachable, c.reachable) << hash_algorithm_name(c.a) << " " << seed_mode_name(c.mode);
    EXPECT_EQ(s->determined, c.determined) << hash_algorithm_name(c.a) << " " << seed_mode_name(c.mode);
    EXPECT_EQ(s->same_hash_as_previous, c.same_hash);
    // The first tier has nothing before it and both of its links are reachable.
    const DecisionStage* first = stage(coupling, 1, true);
    ASSERT_NE(first, nullptr);
    EXPECT_FALSE(first->follows_decision);
    EXPECT_EQ(first->links_reachable, 2u);
    // Over Monte Carlo trials the flows themselves use exactly the reachable links.
    const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {400, 3, 2});
    const auto index = static_cast<std::size_t>(s - coupling.stages().data());
    EXPECT_EQ(r.stage_links_used.at(index), c.reachable);
  }
}

// Real shapes built from specs with the project catalog.
Topology build(const std::string& yaml) {
  auto catalog = load_catalog(ct::testing_support::source_dir() + "/catalog");
  EXPECT_TRUE(catalog.ok());
  auto spec = parse_spec("t.yaml", yaml);
  EXPECT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  auto valid = validate(spec.value(), catalog.value());
  EXPECT_TRUE(valid.ok()) << format_diagnostics(valid.errors());
  return build_topology(valid.value(), catalog.value());
}

// System: a 3-tier k = 8 fat tree (16 HGX H100 x 8 NICs = 128 ports, QM9700 run as k = 8): an
// edge has 4 up links to the 4 aggregation switches of its pod, each with 4 up links to cores.
// Flows from host0/nic0 (edge 0, pod 0) to host 2 (pod 1). Same seed, hash-threshold: the agg
// choice floor(4h / 2^32) repeats the edge choice, so each agg can use 1 of its 4 up links: 4 of
// 16 reachable. Per-switch seeds with the ideal function: all 16.
TEST(Polarization, FatTreeK8FromASpec) {
  const Topology t = build(
      "name: ft8\nnodes: {model: hgx-h100, count: 16}\n"
      "backend: {topology: fat-tree, tiers: 3, switch: qm9700, k: 8}\n");
  for (SeedMode mode : {SeedMode::kSame, SeedMode::kPerSwitch}) {
    const EcmpFabric f(t, testing_support::config(HashAlgorithm::kRandom, mode));
    const std::vector<RouteRequest> flows = {f.request(0, t.port_of(HostId(2u), 0, 0).value(), 0)};
    const DecisionCoupling coupling(*f.walker, flows, 1, 2048);
    const DecisionStage* s = stage(coupling, 2, true);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->links_available, 16u);
    EXPECT_EQ(s->links_reachable, mode == SeedMode::kSame ? 4u : 16u);
    EXPECT_EQ(s->determined, mode == SeedMode::kSame);
  }
}

// System: examples/lab-32.yaml (2 tiers; a leaf has 32 up links, 8 parallel cables to each of 4
// spines). host0/nic0 -> host1/nic1 climbs from leaf 0 and descends to leaf 1 over one of a
// spine's 8 cables. With the same seed the spine's choice floor(8h / 2^32) = floor(m / 4) for the
// leaf's choice m = floor(32h / 2^32): 2 of each spine's 8 down cables, 8 of 32, and determined.
// Per-switch seeds (ideal function): all 32, not determined.
TEST(Polarization, Lab32DownCablesFollowTheLeafChoice) {
  auto catalog = load_catalog(ct::testing_support::source_dir() + "/catalog");
  ASSERT_TRUE(catalog.ok());
  auto spec = load_spec(ct::testing_support::source_dir() + "/examples/lab-32.yaml", catalog.value());
  ASSERT_TRUE(spec.ok()) << format_diagnostics(spec.errors());
  const Topology t = build_topology(spec.value(), catalog.value());
  for (SeedMode mode : {SeedMode::kSame, SeedMode::kPerSwitch}) {
    const EcmpFabric f(t, testing_support::config(HashAlgorithm::kRandom, mode));
    const std::vector<RouteRequest> flows = {
        f.request(t.port_of(HostId(0u), 0, 0).value(), t.port_of(HostId(1u), 1, 0).value(), 0)};
    const DecisionCoupling coupling(*f.walker, flows, 1, 4096);
    const DecisionStage* up = stage(coupling, 1, true);
    const DecisionStage* down = stage(coupling, 2, false);
    ASSERT_NE(up, nullptr);
    ASSERT_NE(down, nullptr);
    EXPECT_EQ(up->links_available, 32u);
    EXPECT_EQ(up->links_reachable, 32u);
    EXPECT_EQ(down->links_available, 32u);
    EXPECT_EQ(down->links_reachable, mode == SeedMode::kSame ? 8u : 32u);
    EXPECT_EQ(down->determined, mode == SeedMode::kSame);
  }
}

// Partial coupling, worked by hand. System: fixtures::three_tier_two_pods(a, c): flows host0 ->
// host2 and host1 -> host3 choose one of a aggregation switches at their edge, then one of that
// switch's c core links. One function and seed everywhere (crc32, or the Linux kernel's L4 policy),
// hash-threshold: both switches compute the same h and pick the region of [0, 2^b) it falls in.
//   a = 2, c = 4: the edge takes h's top bit M1, the agg its top two bits M2 = 2 M1 + (next bit):
//     H(M2) = 2 bits, H(M2 | M1) = 1 bit, so I(M1; M2) = 2 - 1 = 1.00 bit of 2.00; agg j can only
//     use its members 2j and 2j + 1: 2 aggs x 2 = 4 of 8 tier-2 up links reachable (1/2).
//   a = 3, c = 2: thirds at the edge, halves at the agg. The outer thirds lie inside one half
//     (M2 = 0 after M1 = 0, M2 = 1 after M1 = 2), the middle third straddles 2^(b-1) (M2 = 0 or 1,
//     1/2 each): P(M2 = 0) = 1/3 + 1/6 = 1/2, H(M2) = 1 bit, H(M2 | M1) = 1/3 x 1 bit, so
//     I = 1 - 1/3 = 0.67 bit of 1.00; reachable 1 + 2 + 1 = 4 of 6 (2/3).
// (The running Linux kernel, namespaces as routers with one multipath seed, gives 1.000 and 0.641
// bits: tests/linux/linux_ecmp_test.cpp.) Neither is determined (the second choice still varies) nor independent: partial
// coupling. The estimates from 1,024 sampled pairs land within 0.02 bit of these values (0.999,
// 0.999, 0.672, 0.654 when this was written), so 0.05 is the tolerance. Control: per-switch seeds
// with the ideal function: independent, I near 0 (0.002 measured), every link reachable. crc32
// with per-switch seeds for a = 2, c = 4: affine, so the seeds XOR constants into one h and the
// agg's top bit still follows the edge's: partial, 1 bit, 4 of 8.
TEST(Polarization, PartialCouplingIsMeasuredInBits) {
  EcmpConfig linux_l4 = testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame);
  linux_l4.linux_kernel = true;
  linux_l4.linux_policy = 1;
  struct Case {
    const char* name;
    std::uint32_t aggs, cores;
    EcmpConfig config;
    Coupling coupling;
    std::uint32_t available, reachable;
    double bits, entropy;
  };
  const Case cases[] = {
      {"crc32 2x4", 2, 4, testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame), Coupling::kPartial, 8, 4, 1.0, 2.0},
      {"linux 2x4", 2, 4, linux_l4, Coupling::kPartial, 8, 4, 1.0, 2.0},
      {"crc32 3x2", 3, 2, testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame), Coupling::kPartial, 6, 4,
       2.0 / 3.0, 1.0},
      {"linux 3x2", 3, 2, linux_l4, Coupling::kPartial, 6, 4, 2.0 / 3.0, 1.0},
      {"crc32 per-switch 2x4", 2, 4, testing_support::config(HashAlgorithm::kCrc32, SeedMode::kPerSwitch),
       Coupling::kPartial, 8, 4, 1.0, 2.0},
      {"random per-switch 2x4", 2, 4, testing_support::config(HashAlgorithm::kRandom, SeedMode::kPerSwitch),
       Coupling::kIndependent, 8, 8, 0.0, 2.0},
      {"random per-switch 3x2", 3, 2, testing_support::config(HashAlgorithm::kRandom, SeedMode::kPerSwitch),
       Coupling::kIndependent, 6, 6, 0.0, 1.0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const EcmpFabric f(fixtures::three_tier_two_pods(c.aggs, c.cores), c.config);
    const std::vector<RouteRequest> flows = {f.request(0, 2, 0), f.request(1, 3, 0)};
    const DecisionCoupling coupling(*f.walker, flows, 9, 512);
    ASSERT_EQ(coupling.stages().size(), 2u);  // edge up, agg up; every hop down has one way
    const DecisionStage* s = stage(coupling, 2, true);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->coupling, c.coupling) << coupling_name(s->coupling);
    EXPECT_FALSE(s->determined);
    EXPECT_EQ(s->links_available, c.available);
    EXPECT_EQ(s->links_reachable, c.reachable);
    EXPECT_EQ(s->pairs, 1024u);
    EXPECT_NEAR(s->mutual_information_bits, c.bits, c.bits > 0 ? 0.05 : 0.02);
    EXPECT_NEAR(s->entropy_bits, c.entropy, 0.05);
  }
}

// No entropy. The 4-ary fat tree hashing the addresses only (src_ip, dst_ip): redrawing the
// source port changes nothing, every sample of a flow walks one path, so no stage after the first
// carries evidence: each says "no entropy" (never "independent"), and Monte Carlo trials are all
// the same trial.
TEST(Polarization, AddressOnlyHashHasNoEntropy) {
  EcmpConfig c = testing_support::config(HashAlgorithm::kCrc32, SeedMode::kSame);
  c.fields = kL3Only;
  const EcmpFabric f(fixtures::fat_tree_4(), c);
  const std::vector<RouteRequest> flows = {f.request(0, 4, 0), f.request(2, 8, 0)};
  const DecisionCoupling coupling(*f.walker, flows, 9, 256);
  ASSERT_GE(coupling.stages().size(), 2u);
  EXPECT_EQ(coupling.stages()[0].coupling, Coupling::kFirst);
  for (std::size_t i = 1; i < coupling.stages().size(); ++i) {
    EXPECT_EQ(coupling.stages()[i].coupling, Coupling::kNoEntropy) << i;
    EXPECT_DOUBLE_EQ(coupling.stages()[i].entropy_bits, 0.0);
  }
  // Each flow reaches exactly one tier-2 up link: 2 of 4 at most.
  EXPECT_LE(stage(coupling, 2, true)->links_reachable, 2u);
  const MonteCarloResult r = run_ecmp_monte_carlo(*f.walker, flows, coupling, {50, 3, 2});
  for (const TrialOutcome& t : r.outcomes) {
    EXPECT_EQ(t.first_collision, r.outcomes[0].first_collision);
    EXPECT_EQ(t.busiest_first, r.outcomes[0].busiest_first);
    EXPECT_EQ(t.slowest, r.outcomes[0].slowest);
  }
  EXPECT_TRUE(r.p_first_collision == 0.0 || r.p_first_collision == 1.0);
}

}  // namespace
}  // namespace ct
