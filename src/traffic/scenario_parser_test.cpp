// The scenario file (traffic/scenario_parser.h): names resolved on a small fabric, every problem a
// diagnostic at its line and field.
#include "traffic/scenario_parser.h"

#include <gtest/gtest.h>

#include "support/fabric_fixtures.h"
#include "traffic/scenario_checks.h"
#include "traffic/scenario_flags.h"

namespace ct {
namespace {

// 16 GPUs on two leaves and two spines (fixtures::two_tier_16_gpus: its comment numbers the links).
Topology fabric() { return fixtures::two_tier_16_gpus(); }

const char* kGood = R"(scenario:
  name: demo
  seed: 7
  paths: spray
  convergence: 50us
  collectives:
    - name: grads
      kind: all-reduce
      algorithm: ring
      gpus: per-rail
      bytes: 1GiB
      iterations: 3
      compute: 2ms
    - kind: all-to-all
      gpus: {hosts: [0, 3], local: [1], order: random}
      bytes: 64MiB
  transfers:
    - {name: t0, src: host0/gpu1, dst: gpu9, bytes: 1GB, start: 10us, group: story, weight: 2.5}
    - {src: host1/nic0, dst: host5/nic0, bytes: 4KiB}
  mice:
    - {count: 100, bytes: 64KiB, arrivals_per_s: 1e6, hosts: [0, 3]}
  faults:
    - {kind: degrade, port: host2/nic0, fraction: 0.52, at: 0us}
    - {kind: down, link: "p0/leaf/0 -- p0/spine/1", parallel: 1, at: 2ms}
    - {kind: down, switch: p0/spine/0, at: 1ms, convergence: 0us}
    - {kind: repair, link: 11, at: 3ms}
)";

TEST(ScenarioParser, ReadsAndResolvesEverything) {
  const Topology t = fabric();
  auto parsed = parse_scenario("s.yaml", kGood, NameDirectory(t));
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.errors());
  const Scenario& s = parsed.value();
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(s.seed, 7U);
  EXPECT_EQ(s.paths, PathModel::kSpray);
  ASSERT_EQ(s.collectives.size(), 2U);
  const CollectiveSpec& grads = s.collectives[0];
  EXPECT_EQ(grads.bytes, Bytes(1LL << 30));
  EXPECT_EQ(grads.iterations, 3U);
  EXPECT_EQ(grads.compute, TimePs(2'000'000'000));
  // per-rail: local index 0 of hosts 0..7 = GPUs 0, 2, ..., 14; local 1 = 1, 3, ..., 15.
  ASSERT_EQ(grads.groups.size(), 2U);
  EXPECT_EQ(grads.groups[0], (std::vector<std::uint32_t>{0, 2, 4, 6, 8, 10, 12, 14}));
  EXPECT_EQ(grads.groups[1].front(), 1U);
  const CollectiveSpec& a2a = s.collectives[1];
  EXPECT_EQ(a2a.algorithm, CollectiveAlgorithm::kDirect);  // the default for all-to-all
  ASSERT_EQ(a2a.groups.size(), 1U);
  std::vector<std::uint32_t> sorted = a2a.groups[0];
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::uint32_t>{1, 3, 5, 7}));
  ASSERT_EQ(s.transfers.size(), 2U);
  EXPECT_EQ(s.transfers[0].src.gpu, 1U);
  EXPECT_EQ(s.transfers[0].dst.gpu, 9U);
  EXPECT_EQ(s.transfers[0].start, TimePs(10'000'000));
  EXPECT_EQ(s.transfers[0].group, "story");
  EXPECT_DOUBLE_EQ(s.transfers[0].weight, 2.5);
  EXPECT_DOUBLE_EQ(s.transfers[1].weight, 1.0);  // the default
  EXPECT_TRUE(s.transfers[1].src.is_port);
  EXPECT_EQ(s.transfers[1].dst.port, VertexId(5));
  ASSERT_EQ(s.mice.size(), 1U);
  EXPECT_EQ(s.mice[0].hosts, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  // Faults sorted by time; the switch takes all its links; the link name both parallel cables,
  // narrowed by `parallel`; the default convergence applies where none is given.
  ASSERT_EQ(s.faults.size(), 4U);
  EXPECT_EQ(s.faults[0].kind, FaultKind::kDegrade);
  EXPECT_EQ(s.faults[0].links, (std::vector<LinkId>{LinkId(2)}));
  EXPECT_DOUBLE_EQ(s.faults[0].fraction, 0.52);
  EXPECT_EQ(s.faults[1].what, "p0/spine/0");
  EXPECT_EQ(s.faults[1].links, (std::vector<LinkId>{LinkId(8), LinkId(9), LinkId(12), LinkId(13)}));
  EXPECT_EQ(s.faults[1].convergence, TimePs(0));
  EXPECT_EQ(s.faults[2].links, (std::vector<LinkId>{LinkId(11)}));
  EXPECT_EQ(s.faults[2].convergence, TimePs(50'000'000));
  EXPECT_EQ(s.faults[2].fraction, 0.0);
  EXPECT_EQ(s.faults[3].kind, FaultKind::kRepair);
  EXPECT_EQ(s.faults[3].fraction, 1.0);
  // A cable is named as every output names it (the name directory's "A -- B #k", k from 0 among
  // the cables joining A and B): link 11 is the second of leaf 0's two cables to spine 1, whether
  // written as an id or as the bundle narrowed by `parallel: 1` (the bare bundle named both).
  EXPECT_EQ(s.faults[2].what, "p0/leaf/0 -- p0/spine/1 #1");
  EXPECT_EQ(s.faults[3].what, "p0/leaf/0 -- p0/spine/1 #1");
}

// Every error at once, each at its line and field.
TEST(ScenarioParser, ReportsEveryProblemAtItsLineAndField) {
  const Topology t = fabric();
  const char* bad = R"(scenario:
  pathz: ecmp
  collectives:
    - kind: all-reduce
      algorithm: halving-doubling
      gpus: [gpu0, gpu1, gpu2]
      bytes: 1GiB
    - kind: all-reduce
      bytes: 1GiB
      compute: 5 parsecs
  transfers:
    - {src: host9/gpu0, dst: gpu1, bytes: 1GB}
    - {src: gpu0, dst: gpu1, bytes: lots, weight: 0}
  faults:
    - {kind: degrade, port: host0/nic0, at: 0us}
    - {kind: down, link: "p0/leaf/0 -- p0/leaf/1", at: 1ms}
)";
  auto parsed = parse_scenario("bad.yaml", bad, NameDirectory(t));
  ASSERT_FALSE(parsed.ok());
  const Diagnostics& e = parsed.errors();
  auto has = [&](int line, const std::string& field, const std::string& words) {
    for (const Diagnostic& d : e) {
      if (d.where.file == "bad.yaml" && d.where.line == line && d.field == field &&
          d.message.find(words) != std::string::npos) {
        return true;
      }
    }
    ADD_FAILURE() << "no diagnostic at line " << line << " " << field << " saying '" << words << "' in\n"
                  << format_diagnostics(e);
    return false;
  };
  has(2, "scenario.pathz", "did you mean 'paths'");
  has(4, "scenario.collectives[0]", "power-of-two");
  has(10, "scenario.collectives[1].compute", "duration");
  has(12, "scenario.transfers[0].src", "names no GPU");
  // An invalid size is reported once, as invalid, not also as missing.
  has(13, "scenario.transfers[1].bytes", "'lots' is not a size");
  has(13, "scenario.transfers[1].weight", "must be above 0 and at most 1000000, got 0");
  has(15, "scenario.faults[0].fraction", "missing");
  has(16, "scenario.faults[1].link", "no cable joins");
  EXPECT_EQ(e.size(), 8U) << format_diagnostics(e);
}

// The value rules are check_scenario's (traffic/scenario_checks.h); the reader reports them at the
// line of the value they are about, in file order, and not again for a field it already refused.
TEST(ScenarioParser, ValueRulesAreTheChecksAtTheValuesLine) {
  const Topology t = fabric();
  const char* bad = R"(scenario:
  transfers:
    - {src: gpu3, dst: host1/gpu1, bytes: 1GB}
    - {src: gpu0, dst: host0/nic0, bytes: 1GB}
    - {src: host9/gpu0, dst: gpu0, bytes: 1GB}
  mice:
    - count: 10
      bytes: 1KiB
      hosts: [2, 2]
  faults:
    - kind: down
      link: 11
      fraction: 0.5
      at: 1ms
    - {kind: degrade, link: 12, fraction: 0, at: 1ms}
)";
  auto parsed = parse_scenario("v.yaml", bad, NameDirectory(t));
  ASSERT_FALSE(parsed.ok());
  const Diagnostics& e = parsed.errors();
  ASSERT_EQ(e.size(), 6U) << format_diagnostics(e);
  // host1/gpu1 is GPU 1 x 2 + 1 = 3: the same GPU as gpu3.
  EXPECT_EQ(format_diagnostic(e[0]), "v.yaml:3:7: error: scenario.transfers[0]: src and dst are the same");
  EXPECT_EQ(format_diagnostic(e[1]), "v.yaml:4:7: error: scenario.transfers[1]: src and dst must both be GPUs or both be ports");
  // An unknown source: its own error only, no pair rule on a placeholder.
  EXPECT_EQ(e[2].field, "scenario.transfers[2].src");
  EXPECT_EQ(format_diagnostic(e[3]), "v.yaml:9:14: error: scenario.mice[0].hosts: mice need at least 2 hosts");
  EXPECT_EQ(format_diagnostic(e[4]),
            "v.yaml:13:17: error: scenario.faults[0].fraction: only a degrade has a fraction (down is 0, repair is 1)");
  // A degrade to 0 is refused by the reader's range, and only once.
  EXPECT_EQ(e[5].field, "scenario.faults[1].fraction");
  EXPECT_NE(e[5].message.find("above 0 and at most 1, got 0"), std::string::npos) << e[5].message;
}

TEST(ScenarioParser, NeedsAScenarioBlock) {
  const Topology t = fabric();
  EXPECT_FALSE(parse_scenario("x.yaml", "name: just-a-spec\n", NameDirectory(t)).ok());
  EXPECT_TRUE(has_scenario_block(kGood));
  EXPECT_FALSE(has_scenario_block("name: x\n"));
}

// The GPU rules of a collective built without a file (check_scenario, as `simulate` runs it): on
// the 16 GPUs of fabric(), group {0, 5, 0, 5, 99} names GPUs 0 and 5 twice and GPU 99 (> 15) that
// does not exist: three problems in the group's order. Group {0, 5} reuses the first group's GPUs,
// which is no problem (the rule is per group).
// Issue 24 item 4: the flags of `simulate` against a scenario file. kGood writes `seed: 7` (line 3)
// and `paths: spray` (line 4), and neither collective writes a model; a file without them takes
// the flags' values; a flag that disagrees with a written value is a conflict naming the file's
// line; --model on a scenario without collectives, and a collective's flag beside a file, are
// refused.
TEST(ScenarioParser, FlagsApplyWhereTheFileIsSilentAndConflictWhereItIsNot) {
  const Topology t = fabric();
  const NameDirectory names(t);
  Scenario s = parse_scenario("s.yaml", kGood, names, 99).value();
  EXPECT_EQ(s.seed, 7U);
  EXPECT_EQ(s.seed_at.line, 3);
  EXPECT_EQ(s.paths_at.line, 4);
  ScenarioFlags flags;
  flags.model = "stepwise";
  flags.paths = "spray";
  flags.seed = 7;
  flags.given = {"--model", "--paths", "--seed"};
  FlagProblems agree = apply_flags(flags, "s.yaml", s);
  EXPECT_TRUE(agree.usage.empty()) << agree.usage.front();
  EXPECT_EQ(s.collectives[0].model, CollectiveModel::kStepwise);
  EXPECT_EQ(s.collectives[1].model, CollectiveModel::kStepwise);

  flags.paths = "ecmp";
  flags.seed = 8;
  flags.given.push_back("--bytes");
  const FlagProblems conflict = apply_flags(flags, "s.yaml", s);
  ASSERT_EQ(conflict.usage.size(), 3U);
  EXPECT_NE(conflict.usage[0].find("--bytes"), std::string::npos) << conflict.usage[0];
  EXPECT_NE(conflict.usage[1].find("--seed 8 (command line) and s.yaml:3:3: scenario.seed: 7"), std::string::npos)
      << conflict.usage[1];
  EXPECT_NE(conflict.usage[2].find("--paths ecmp (command line) and s.yaml:4:3: scenario.paths: spray"), std::string::npos)
      << conflict.usage[2];

  Scenario silent = parse_scenario("t.yaml", "scenario:\n  transfers:\n    - {src: host1/nic0, dst: host5/nic0, bytes: 4KiB}\n",
                                   names, 42)
                        .value();
  EXPECT_EQ(silent.seed, 42U);
  EXPECT_EQ(silent.seed_at.line, 0);
  flags.given = {"--paths", "--model"};
  const FlagProblems no_collective = apply_flags(flags, "t.yaml", silent);
  EXPECT_EQ(silent.paths, PathModel::kEcmp);
  ASSERT_EQ(no_collective.usage.size(), 1U);
  EXPECT_NE(no_collective.usage[0].find("has no collective"), std::string::npos) << no_collective.usage[0];
  flags.model = "stepwyse";
  EXPECT_EQ(apply_flags(flags, "t.yaml", silent).errors.size(), 1U);
}

TEST(ScenarioChecks, AGpuTwiceInOneGroupIsAProblemAcrossGroupsItIsNot) {
  const Topology t = fabric();
  Scenario s;
  CollectiveSpec c;
  c.name = "dup";
  c.bytes = Bytes(1 << 20);
  c.groups = {{0, 5, 0, 5, 99}, {0, 5}};
  s.collectives.push_back(c);
  const std::vector<ScenarioProblem> p = check_scenario(s, t);
  ASSERT_EQ(p.size(), 3U);
  EXPECT_EQ(p[0].message, "GPU 0 is listed twice in one group");
  EXPECT_EQ(p[1].message, "GPU 5 is listed twice in one group");
  EXPECT_EQ(p[2].message, "GPU 99 does not exist (16 GPUs)");
  for (const ScenarioProblem& q : p) EXPECT_EQ(scenario_field(q), "scenario.collectives[0].gpus");
  s.collectives[0].groups = {{0, 5}, {0, 5}, {5, 0}};
  EXPECT_TRUE(check_scenario(s, t).empty());
}

}  // namespace
}  // namespace ct
