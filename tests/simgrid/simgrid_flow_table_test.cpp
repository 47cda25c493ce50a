// `simulate --flows` against SimGrid 3.32 in both of its exact modes (simgrid_reference.h:
// network/optim:Full and Lazy), the comparison bench/bench_simulate.cpp times at 8,192 and 32,768
// flows, here on a small case. The system: a 2-tier fabric of 4 leaves x 8 single-NIC hosts and 4
// spines (400 Gb/s, no latency); a random permutation of the 32 ports, sizes 16 MB +- 50 %
// (uniform in [8, 24] MB), all at t = 0, given as a flow table without routes (ECMP picks the
// paths). The expected answer is SimGrid's: the very same constraints, paths and sizes solved by
// its max-min model must give every flow's last byte within 1e-6 relative.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include <fmt/format.h>

#include "core/rng.h"
#include "fluid_scenario.h"
#include "sim/simulation.h"
#include "simgrid_reference.h"
#include "support/fabric_fixtures.h"
#include "support/fixture_fabric.h"
#include "traffic/flow_table.h"

namespace ct {
namespace {

constexpr double kTolerance = 1e-6;

TEST(SimGridComparison, FlowTablePermutationAgreesInFullAndLazyModes) {
  Topology topology = fixtures::two_tier(4, 4, 8);
  topology.gpus_per_host = 1;
  const Fabric fabric = fixtures::fixture_fabric(topology);
  Rng rng(7, 0, 0);
  std::vector<std::uint32_t> dst(32);
  std::iota(dst.begin(), dst.end(), 0U);
  for (std::size_t i = dst.size() - 1; i > 0; --i) std::swap(dst[i], dst[rng.uniform(i + 1)]);
  for (std::size_t i = 0; i < dst.size(); ++i) {
    if (dst[i] == i) std::swap(dst[i], dst[(i + 1) % dst.size()]);
  }
  std::string table = "flow,src,dst,bytes\n";
  for (std::uint32_t i = 0; i < 32; ++i) {
    table += fmt::format("{},host{}/nic0,host{}/nic0,{}\n", i, i, dst[i], 8'000'000 + rng.uniform(16'000'001));
  }
  auto parsed = parse_flow_table("perm.csv", table, fabric.names());
  ASSERT_TRUE(parsed.ok()) << format_diagnostics(parsed.errors());
  auto result = simulate(fabric, Scenario{}, &parsed.value());
  ASSERT_TRUE(result.ok()) << format_diagnostics(result.errors());
  const std::vector<double> ours = last_byte_seconds(result.value(), fabric.topology());
  const FluidScenario fluid = fluid_of(result.value());
  for (const SimGridMode mode : {SimGridMode::kFull, SimGridMode::kLazy}) {
    std::vector<double> theirs;
    ASSERT_GE(run_simgrid_in_child(fluid, theirs, mode), 0.0) << "SimGrid child failed";
    double worst = 0;
    for (std::size_t f = 0; f < ours.size(); ++f) {
      ASSERT_GT(theirs[f], 0.0) << "flow " << f;
      const double error = std::abs(ours[f] - theirs[f]) / theirs[f];
      worst = std::max(worst, error);
      EXPECT_LE(error, kTolerance) << (mode == SimGridMode::kFull ? "Full" : "Lazy") << " flow " << f << ": clustertwin "
                                   << ours[f] << " s, SimGrid " << theirs[f] << " s";
    }
    std::printf("%s: %zu flows, largest relative difference %.3g\n", mode == SimGridMode::kFull ? "Full" : "Lazy",
                ours.size(), worst);
    std::fflush(stdout);  // before the next fork, so that the child does not carry the line too
  }
}

}  // namespace
}  // namespace ct
