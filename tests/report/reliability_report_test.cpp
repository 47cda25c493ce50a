// The reliability study end to end on small clusters (parse_spec -> validate -> study) and its text
// and JSON views.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "analysis/reliability_study.h"
#include "io/loaders.h"
#include "report/reliability_report.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/shipped_catalog.h"

namespace ct {
namespace {

using ::testing::HasSubstr;

using testing_support::real_catalog;

ReliabilityStudy study_of(const std::string& yaml, int trials) {
  auto spec = parse_spec("t.yaml", yaml);
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : format_diagnostics(spec.errors()));
  auto valid = validate(spec.value(), real_catalog());
  EXPECT_TRUE(valid.ok()) << (valid.ok() ? "" : format_diagnostics(valid.errors()));
  auto fabric = build_fabric(valid.value(), real_catalog());
  EXPECT_TRUE(fabric.ok()) << (fabric.ok() ? "" : format_diagnostics(fabric.errors()));
  const ReliabilityInputs inputs = reliability_inputs(valid->reliability);
  auto s = study_reliability(fabric.value(), spec.value(), inputs, {.seed = 5, .trials = trials, .threads = 2});
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : format_diagnostics(s.errors()));
  return std::move(s).value();
}

// 32 B300 hosts (256 GPUs), 2 planes, 2 tiers; every repair 12 h, the job on 128 GPUs (16 hosts).
const std::string kB300 =
    "name: small-b300\n"
    "nodes: {model: hgx-b300, count: 32}\n"
    "backend: {topology: rail-optimized, planes: 2, tiers: 2, switch: sn5600}\n"
    "reliability:\n"
    "  job_gpus: 128\n"
    "  repair_hours: {nic: 12, link: 12, leaf: 12, spine: 12, core: 12}\n";

// The spec's block reaches the model: 128 GPUs = 16 hosts, spares ceil(16 / 16) = 1, 12 h repairs.
// The comparison re-plans the cluster at 1, 2 and 4 planes; the 2-plane row is the design itself.
TEST(ReliabilityStudy, SpecBlockAndPlaneVariants) {
  const ReliabilityStudy s = study_of(kB300, 200);
  EXPECT_EQ(s.design.model.job_gpus, 128);
  EXPECT_EQ(s.design.model.job_hosts, 16);
  EXPECT_EQ(s.design.model.spare_hosts, 1);
  for (const auto& c : s.design.model.classes) EXPECT_EQ(c.mttr_hours, 12.0) << c.name;
  ASSERT_EQ(s.planes.size(), 3u);
  EXPECT_EQ(s.planes[0].planes, 1);
  EXPECT_EQ(s.planes[1].planes, 2);
  EXPECT_EQ(s.planes[2].planes, 4);
  for (const auto& d : s.planes) EXPECT_TRUE(d.feasible()) << d.infeasible;
  EXPECT_EQ(s.planes[1].mc.lost_hours.mean, s.design.mc.lost_hours.mean);
  // One plane: NIC-leaf links (128 of the job's) stop the job instead of degrading it.
  EXPECT_GT(s.planes[0].closed.stop_per_hour, s.planes[1].closed.stop_per_hour);
  // Job sizes 8, 64 and all 256 GPUs: the failures reaching a job grow with it.
  ASSERT_EQ(s.design.job_sizes.size(), 3u);
  EXPECT_EQ(s.design.job_sizes.back().gpus, 256);
  EXPECT_LT(s.design.job_sizes[0].touch_per_hour, s.design.job_sizes[1].touch_per_hour);
}

// ConnectX-7 cages cannot be split: the 2- and 4-plane variants of an H100 cluster are infeasible
// and say why.
TEST(ReliabilityStudy, VariantTheNicCannotSplitIsInfeasible) {
  const ReliabilityStudy s = study_of(
      "name: h100\nnodes: {model: hgx-h100, count: 16}\n"
      "backend: {topology: rail-optimized, planes: 1, tiers: 2, switch: sn5600}\n"
      "reliability: {repair_hours: {nic: 8, link: 8, leaf: 8, spine: 8, core: 8}}\n",
      50);
  EXPECT_TRUE(s.planes[0].feasible());
  EXPECT_FALSE(s.planes[1].feasible());
  EXPECT_THAT(s.planes[1].infeasible, HasSubstr("connectx-7"));
  const std::string text = to_text(s);
  EXPECT_THAT(text, HasSubstr("not feasible"));
}

TEST(ReliabilityReport, TextAndJsonCarryTheFigures) {
  const ReliabilityStudy s = study_of(kB300, 100);
  const std::string text = to_text(s);
  EXPECT_THAT(text, HasSubstr("Reliability of small-b300: 32 hosts, 256 GPUs, 2 planes, 2 tiers"));
  EXPECT_THAT(text, HasSubstr("NIC-leaf link (transceiver)"));
  EXPECT_THAT(text, HasSubstr("link-hpn"));
  EXPECT_THAT(text, HasSubstr("<- this design"));
  const auto j = nlohmann::json::parse(to_json(s));
  EXPECT_EQ(j["name"], "small-b300");
  EXPECT_EQ(j["job"]["gpus"], 128);
  EXPECT_EQ(j["design"]["monte_carlo"]["trials"], 100);
  EXPECT_EQ(j["planes"].size(), 3u);
  const auto& nic = j["design"]["classes"][0];
  EXPECT_EQ(nic["name"], "NIC");
  EXPECT_EQ(nic["count"], 256);
  EXPECT_DOUBLE_EQ(nic["steady_state"]["expected_down"].get<double>(),
                   s.design.steady[0].expected_down);
  // Same inputs, same bytes.
  EXPECT_EQ(to_json(study_of(kB300, 100)), to_json(s));
}

}  // namespace
}  // namespace ct
