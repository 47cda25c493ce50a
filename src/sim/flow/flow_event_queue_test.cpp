// The event queue's pop order is (time, sequence) whatever structure holds an event: a schedule
// given in bulk (set_last_bytes, merged into the sorted run when large) pops exactly as the same
// schedule given one event at a time (set_last_byte, the indexed heap).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "sim/flow/flow_event_queue.h"

namespace ct {
namespace {

// Random rounds over 20,000 flows: each round schedules a bulk of flows (sometimes above
// kMinRun, so that it becomes or joins the run; sometimes small), cancels some, pushes a few
// starts, and pops some events; the two queues must pop the same (time, seq, kind, subject).
TEST(FlowEventQueue, BulkSchedulesPopAsSingleOnes) {
  FlowEventQueue bulk;
  FlowEventQueue single;
  Rng rng(7, 0, 0);
  constexpr std::uint32_t kFlows = 20'000;
  std::vector<std::pair<std::uint32_t, TimePs>> schedule;
  std::vector<std::uint8_t> chosen(kFlows, 0);
  std::int64_t now = 0;
  std::size_t popped = 0;
  for (int round = 0; round < 60; ++round) {
    const std::size_t want = rng.uniform(3) == 0 ? 1 + rng.uniform(100) : FlowEventQueue::kMinRun + rng.uniform(8000);
    schedule.clear();
    std::fill(chosen.begin(), chosen.end(), 0);
    while (schedule.size() < want) {
      const auto flow = static_cast<std::uint32_t>(rng.uniform(kFlows));
      if (chosen[flow] != 0) continue;
      chosen[flow] = 1;
      schedule.emplace_back(flow, TimePs(now + static_cast<std::int64_t>(rng.uniform(1000))));
    }
    bulk.set_last_bytes(schedule);
    for (const auto& [flow, time] : schedule) single.set_last_byte(flow, time);
    for (int k = 0; k < 50; ++k) {
      const auto flow = static_cast<std::uint32_t>(rng.uniform(kFlows));
      bulk.cancel_last_byte(flow);
      single.cancel_last_byte(flow);
    }
    const auto start = static_cast<std::uint32_t>(rng.uniform(kFlows));
    bulk.push(TimePs(now + 10), FlowEventKind::kStart, start);
    single.push(TimePs(now + 10), FlowEventKind::kStart, start);
    ASSERT_EQ(bulk.size(), single.size());
    ASSERT_EQ(bulk.pending_last_bytes(), single.pending_last_bytes());
    const std::size_t pops = rng.uniform(bulk.size() / 2 + 1);
    for (std::size_t p = 0; p < pops && !single.empty(); ++p) {
      const FlowEvent a = bulk.pop();
      const FlowEvent b = single.pop();
      ASSERT_EQ(a.time, b.time);
      ASSERT_EQ(a.seq, b.seq);
      ASSERT_EQ(a.tagged, b.tagged);
      now = a.time.value();
      ++popped;
    }
  }
  while (!single.empty()) {
    ASSERT_FALSE(bulk.empty());
    const FlowEvent a = bulk.pop();
    const FlowEvent b = single.pop();
    ASSERT_EQ(a.seq, b.seq);
    ASSERT_EQ(a.tagged, b.tagged);
    ++popped;
  }
  EXPECT_TRUE(bulk.empty());
  EXPECT_GT(popped, 100'000U);
}

}  // namespace
}  // namespace ct
