// The scenario builder (traffic/scenario_builder.h) and its two users: names from one table each,
// GPU selections, fault targets, and the same request through the flags (traffic/scenario_flags.h)
// and through a scenario file (traffic/scenario_parser.h) giving the same Scenario.
#include "traffic/scenario_builder.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "support/fabric_fixtures.h"
#include "traffic/scenario_flags.h"
#include "traffic/scenario_parser.h"

namespace ct {
namespace {

// 16 GPUs on two leaves and two spines (fixtures::two_tier_16_gpus: its comment numbers the links).
Topology fabric() { return fixtures::two_tier_16_gpus(); }

const ValueOrigin kFlag{{"command line", 0, 0}, "--x"};

// Every field of a Scenario but its file and position, one per line, so that two Scenarios that
// differ show where.
std::string describe(const Scenario& s) {
  std::string out = fmt::format("name {} paths {} seed {}\n", s.name, path_model_name(s.paths), s.seed);
  for (const CollectiveSpec& c : s.collectives) {
    out += fmt::format("collective {} {} {} {} gpus '{}' bytes {} channels {} qps {} iterations {} steps {} compute {} "
                       "start {} weight {}\n",
                       c.name, collective_kind_name(c.kind), algorithm_name(c.algorithm), collective_model_name(c.model),
                       c.gpus_text, c.bytes.value(), c.channels, c.qps, c.iterations, c.steps, c.compute.value(),
                       c.start.value(), c.weight);
    for (const auto& g : c.groups) out += fmt::format("  group {}\n", fmt::join(g, " "));
  }
  for (const FaultSpec& f : s.faults) {
    std::vector<std::uint32_t> links;
    for (const LinkId l : f.links) links.push_back(l.value());
    out += fmt::format("fault {} '{}' links {} at {} fraction {} convergence {}\n", fault_kind_name(f.kind), f.what,
                       fmt::join(links, " "), f.at.value(), f.fraction, f.convergence.value());
  }
  out += fmt::format("transfers {} mice {}\n", s.transfers.size(), s.mice.size());
  return out;
}

TEST(ScenarioBuilder, NamesComeFromOneTableWithDidYouMean) {
  const Topology t = fabric();
  const NameDirectory names(t);
  Diagnostics errors;
  ScenarioBuilder b("s.yaml", names, errors);
  EXPECT_EQ(b.algorithm("halving-doubling", kFlag), CollectiveAlgorithm::kHalvingDoubling);
  EXPECT_EQ(b.collective_kind("all-to-all", kFlag), CollectiveKind::kAllToAll);
  EXPECT_EQ(b.path_model("adaptive", kFlag), PathModel::kAdaptive);
  EXPECT_EQ(b.fault_kind("repair", kFlag), FaultKind::kRepair);
  EXPECT_EQ(b.gpu_grouping("rail", kFlag), GpuGrouping::kRail);
  EXPECT_EQ(b.gpu_order("random", kFlag), GpuOrder::kRandom);
  EXPECT_TRUE(errors.empty()) << format_diagnostics(errors);

  EXPECT_FALSE(b.algorithm("rin", kFlag));
  EXPECT_FALSE(b.path_model("spra", kFlag));
  EXPECT_FALSE(b.fault_kind("dow", kFlag));
  ASSERT_EQ(errors.size(), 3U);
  EXPECT_EQ(errors[0].field, "--x");
  EXPECT_EQ(errors[0].message,
            "unknown algorithm 'rin' (ring, tree, halving-doubling, hierarchical, sharp, direct) (did you mean 'ring'?)");
  EXPECT_EQ(errors[1].message, "unknown path model 'spra' (ecmp, spray, adaptive) (did you mean 'spray'?)");
  EXPECT_EQ(errors[2].message, "unknown value 'dow' (down, degrade, repair) (did you mean 'down'?)");
}

// Named selections cover the fabric: all = one group of 16, per-rail = one per local index, per-host
// = one per host. A random order is a seeded permutation of each group: the same seed, the same order.
TEST(ScenarioBuilder, SelectionsGroupTheFabricsGpus) {
  const Topology t = fabric();
  const NameDirectory names(t);
  Diagnostics errors;
  ScenarioBuilder b("s.yaml", names, errors);
  const auto all = b.named_selection("all", kFlag, "GPU selector", "a list");
  ASSERT_TRUE(all);
  ASSERT_EQ(b.groups(*all).size(), 1U);
  EXPECT_EQ(b.groups(*all)[0].size(), 16U);
  const auto rails = b.groups(*b.named_selection("per-rail", kFlag, "GPU selector", "a list"));
  ASSERT_EQ(rails.size(), 2U);
  EXPECT_EQ(rails[1], (std::vector<std::uint32_t>{1, 3, 5, 7, 9, 11, 13, 15}));
  EXPECT_EQ(b.groups(*b.named_selection("per-host", kFlag, "GPU selector", "a list")).size(), 8U);

  GpuSelection scattered{{0, 1, 2, 3}, {0}, GpuGrouping::kNone, GpuOrder::kRandom};
  const auto once = b.groups(scattered);
  EXPECT_EQ(once, b.groups(scattered));
  std::vector<std::uint32_t> sorted = once[0];
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::uint32_t>{0, 2, 4, 6}));

  EXPECT_FALSE(b.named_selection("per-rial", kFlag, "GPU selector", "a list, or a mapping"));
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_EQ(errors[0].message,
            "unknown GPU selector 'per-rial' (all, per-rail, per-host, a list, or a mapping) (did you mean 'per-rail'?)");
}

// A cable name takes every parallel cable; a port its NIC link; a switch all its links, in order.
TEST(ScenarioBuilder, FaultTargetsResolveToLinks) {
  const Topology t = fabric();
  const NameDirectory names(t);
  Diagnostics errors;
  ScenarioBuilder b("s.yaml", names, errors);
  EXPECT_EQ(b.cable_links("p0/leaf/0 -- p0/spine/0", kFlag), (std::vector<LinkId>{LinkId(8), LinkId(9)}));
  EXPECT_EQ(b.port_links("host2/nic0", kFlag), (std::vector<LinkId>{LinkId(2)}));
  const std::vector<LinkId> spine{LinkId(8), LinkId(9), LinkId(12), LinkId(13)};
  EXPECT_EQ(b.switch_links("p0/spine/0", kFlag), spine);
  EXPECT_EQ(b.target_links("p0/spine/0", kFlag), spine);
  EXPECT_EQ(b.target_links("host2/nic0", kFlag), (std::vector<LinkId>{LinkId(2)}));
  EXPECT_EQ(b.target_links("9", kFlag), (std::vector<LinkId>{LinkId(9)}));
  EXPECT_TRUE(errors.empty()) << format_diagnostics(errors);
  EXPECT_TRUE(b.target_links("p0/spnie/0", kFlag).empty());
  ASSERT_EQ(errors.size(), 1U);
  EXPECT_NE(errors[0].message.find("did you mean 'p0/spine/0'"), std::string::npos) << errors[0].message;
}

// One request, two spellings: the flags and a scenario file give the same Scenario.
TEST(ScenarioBuilder, FlagsAndFileGiveTheSameScenario) {
  const Topology t = fabric();
  const NameDirectory names(t);
  ScenarioFlags flags;
  flags.collective = "all-reduce";
  flags.algorithm = "tree";
  flags.bytes = "64MiB";
  flags.gpus = "per-rail";
  flags.iterations = 3;
  flags.compute = "2ms";
  flags.channels = 2;
  flags.paths = "spray";
  flags.seed = 7;
  flags.convergence = "50us";
  flags.fail = {"p0/spine/0@1ms", "p0/leaf/0 -- p0/spine/0@3ms"};
  flags.degrade = {"host2/nic0=0.5@2ms"};
  flags.repair = {"p0/spine/0@9ms"};
  auto from_flags = build_flag_scenario(flags, names);
  ASSERT_TRUE(from_flags.ok()) << format_diagnostics(from_flags.errors());

  const char* file = R"(scenario:
  name: all-reduce
  seed: 7
  paths: spray
  convergence: 50us
  collectives:
    - {name: all-reduce, kind: all-reduce, algorithm: tree, gpus: per-rail, bytes: 64MiB, iterations: 3,
       compute: 2ms, channels: 2}
  faults:
    - {kind: down, switch: p0/spine/0, at: 1ms}
    - {kind: down, link: "p0/leaf/0 -- p0/spine/0", at: 3ms}
    - {kind: degrade, port: host2/nic0, fraction: 0.5, at: 2ms}
    - {kind: repair, switch: p0/spine/0, at: 9ms}
)";
  auto from_file = parse_scenario("s.yaml", file, names);
  ASSERT_TRUE(from_file.ok()) << format_diagnostics(from_file.errors());
  EXPECT_EQ(describe(from_flags.value()), describe(from_file.value()));
  EXPECT_EQ(from_flags->faults.size(), 4U);
  EXPECT_EQ(from_flags->faults[1].kind, FaultKind::kDegrade);  // in time order
}

// --gpus in the file's own forms (a list, a mapping with a random order) and as a comma list.
TEST(ScenarioBuilder, FlagSelectionsMatchTheFilesForms) {
  const Topology t = fabric();
  const NameDirectory names(t);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{hosts: [0, 3], local: [1], order: random}", "{hosts: [0, 3], local: [1], order: random}"},
      {"[host0/gpu0, gpu3, 12]", "[host0/gpu0, gpu3, 12]"},
      {"host0/gpu0,gpu3,12", "[host0/gpu0, gpu3, 12]"},
      {"per-host", "per-host"}};
  for (const auto& [flag, yaml] : cases) {
    ScenarioFlags flags;
    flags.collective = "all-to-all";
    flags.bytes = "1MiB";
    flags.gpus = flag;
    flags.seed = 11;
    auto from_flags = build_flag_scenario(flags, names);
    ASSERT_TRUE(from_flags.ok()) << flag << "\n" << format_diagnostics(from_flags.errors());
    const std::string file = fmt::format(
        "scenario:\n  name: all-to-all\n  seed: 11\n  collectives:\n    - {{name: all-to-all, kind: all-to-all, "
        "bytes: 1MiB, gpus: {}}}\n",
        yaml);
    auto from_file = parse_scenario("s.yaml", file, names);
    ASSERT_TRUE(from_file.ok()) << yaml << "\n" << format_diagnostics(from_file.errors());
    EXPECT_EQ(describe(from_flags.value()), describe(from_file.value())) << flag;
  }
}

// The flags' diagnostics name the flag: a name refused by its table, and a value rule of
// traffic/scenario_checks.h about the field the flag sets.
TEST(ScenarioBuilder, FlagDiagnosticsNameTheirFlag) {
  const Topology t = fabric();
  const NameDirectory names(t);
  ScenarioFlags flags;
  flags.collective = "all-reduse";
  flags.bytes = "1GiB";
  flags.channels = 100;
  flags.gpus = "per-rial";
  auto built = build_flag_scenario(flags, names);
  ASSERT_FALSE(built.ok());
  const Diagnostics& e = built.errors();
  ASSERT_EQ(e.size(), 3U) << format_diagnostics(e);
  EXPECT_EQ(e[0].field, "--collective");
  EXPECT_NE(e[0].message.find("did you mean 'all-reduce'"), std::string::npos) << e[0].message;
  EXPECT_EQ(e[1].field, "--gpus");
  EXPECT_NE(e[1].message.find("unknown GPU selection 'per-rial' (all, per-rail, per-host, a list such as"),
            std::string::npos)
      << e[1].message;
  EXPECT_EQ(e[2].field, "--channels");
  EXPECT_EQ(e[2].message, "expected an integer in 1..64");
  EXPECT_EQ(e[2].where.file, "command line");
}

}  // namespace
}  // namespace ct
