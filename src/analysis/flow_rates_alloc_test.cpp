// A reused FlowRateSolver allocates nothing once warm (the Monte Carlo solves max-min once per trial;
// issue 10 wants those solves free of allocation). This binary replaces the global operator new
// with one that counts calls, warms a solver on the largest system of the test (32 sprayed flows),
// then counts the allocations of further solves of systems no larger: the expected count is 0.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "analysis/flow_rates.h"
#include "support/fabric_fixtures.h"
#include "support/flow_routes_builder.h"

namespace {
std::atomic<std::uint64_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace ct {
namespace {

using testing_support::add_subflow;
using testing_support::empty_routes;
using testing_support::up;

// Flows f = 0 .. n-1 on two_tier(4 leaves, 4 spines, 8 hosts): from host f to host f + 8 (next
// leaf), on NIC link f, uplink 32 + 4 (f / 8) + f % 4 (leaf f / 8 to spine f % 4); sprayed flows
// put 1/4 on each of the leaf's 4 uplinks instead.
FlowRoutes routes(std::uint32_t n, bool sprayed) {
  FlowRoutes r = empty_routes(n);
  for (std::uint32_t f = 0; f < n; ++f) {
    const std::uint32_t first_uplink = 32 + 4 * (f / 8);
    if (sprayed) {
      add_subflow(r, f, 0, 1.0,
                  {up(f), up(first_uplink, 0.25), up(first_uplink + 1, 0.25), up(first_uplink + 2, 0.25),
                   up(first_uplink + 3, 0.25)});
    } else {
      add_subflow(r, f, 0, 1.0, {up(f), up(first_uplink + f % 4)});
    }
  }
  return r;
}

TEST(FlowRateSolver, WarmSolvesAllocateNothing) {
  const Topology t = fixtures::two_tier(4, 4, 8);
  const FlowRoutes big = routes(32, true);
  const FlowRoutes hashed = routes(32, false);
  const FlowRoutes small = routes(5, false);
  FlowRateSolver solver(t);
  FlowRates out;
  solver.solve(big, out);  // warm: the largest system
  const std::uint64_t before = g_allocations.load();
  for (int round = 0; round < 3; ++round) {
    solver.solve(hashed, out);
    solver.solve(small, out);
    solver.solve(big, out);
  }
  const std::uint64_t after = g_allocations.load();
  EXPECT_EQ(after - before, 0U);
  // And the counter counts: a fresh solver allocates.
  FlowRateSolver fresh(t);
  FlowRates other;
  fresh.solve(small, other);
  EXPECT_GT(g_allocations.load(), after);
  // The last solve is the sprayed one: leaf 0's 8 flows each put r/4 on each of its 4 uplinks,
  // 2r per uplink, so the uplinks saturate at r = C/2 before the NIC links (r = C): 200 Gb/s.
  EXPECT_DOUBLE_EQ(out.throughput[0], static_cast<double>(fixtures::kLinkSpeed.value()) / 2.0);
}

}  // namespace
}  // namespace ct
