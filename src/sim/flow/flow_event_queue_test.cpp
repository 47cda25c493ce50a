// The event queue's pop order is (time, sequence) whatever structure holds an event: a schedule
// given in bulk (set_last_bytes, merged into the sorted run when large) pops exactly as the same
// schedule given one event at a time (set_last_byte, the indexed heap).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <tuple>
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

// The arrays of a million events or more are given back after use (kKeepScratch): a collective's
// starts at one time, a bulk into the empty run sorted in place (one time for all, then times in
// order), a second large bulk merged into the run, and the same schedules given one at a time pop
// in the same order.
TEST(FlowEventQueue, LargeStartsAndBulksPopAsSingleOnes) {
  FlowEventQueue bulk;
  FlowEventQueue single;
  constexpr auto kFlows = static_cast<std::uint32_t>(FlowEventQueue::kKeepScratch + 5);
  bulk.reserve_ordered(kFlows);
  for (std::uint32_t f = 0; f < kFlows; ++f) {
    bulk.push(TimePs(0), FlowEventKind::kStart, f);
    single.push(TimePs(0), FlowEventKind::kStart, f);
  }
  const auto same_pops = [&](std::size_t pops) {
    for (std::size_t p = 0; p < pops; ++p) {
      ASSERT_FALSE(bulk.empty());
      const FlowEvent a = bulk.pop();
      const FlowEvent b = single.pop();
      ASSERT_EQ(a.time, b.time);
      ASSERT_EQ(a.seq, b.seq);
      ASSERT_EQ(a.tagged, b.tagged);
    }
  };
  same_pops(kFlows);
  Rng rng(11, 0, 0);
  std::vector<std::pair<std::uint32_t, TimePs>> schedule;
  for (int round = 0; round < 3; ++round) {
    schedule.clear();
    for (std::uint32_t f = static_cast<std::uint32_t>(round); f < kFlows; f += 2) {
      const std::int64_t at = round == 0 ? 5000 : 5000 + static_cast<std::int64_t>(rng.uniform(1'000'000));
      schedule.emplace_back(f, TimePs(at));
    }
    if (round == 2) {
      for (std::uint32_t f = 1; f < kFlows; f += 2) schedule.emplace_back(f, TimePs(2'000'000 + f));
    }
    bulk.set_last_bytes(schedule);
    for (const auto& [flow, time] : schedule) single.set_last_byte(flow, time);
    ASSERT_EQ(bulk.size(), single.size());
    same_pops(round == 0 ? bulk.size() : 1000);
  }
  same_pops(single.size());
  EXPECT_TRUE(bulk.empty());
}

// Starts and timers pushed in (time, seq) order go to the ordered run, the others to the heap;
// last bytes to their own heap or run. Against a reference that pops everything by (time, seq):
// mostly in-order pushes (as a collective's starts at t = 0), some earlier ones, some at the same
// time as the run's last, interleaved with last bytes and pops.
TEST(FlowEventQueue, InOrderPushesPopByTimeThenSequence) {
  FlowEventQueue queue;
  std::set<std::tuple<std::int64_t, std::uint64_t, std::uint32_t>> reference;  // (time, seq, tagged)
  Rng rng(11, 0, 0);
  std::uint64_t seq = 0;
  std::int64_t now = 0;
  std::int64_t last_in_order = 0;
  std::size_t popped = 0;
  for (int round = 0; round < 2000; ++round) {
    const auto pushes = rng.uniform(20);
    for (std::uint64_t k = 0; k < pushes; ++k) {
      const auto subject = static_cast<std::uint32_t>(rng.uniform(1000));
      const auto choice = rng.uniform(4);
      std::int64_t time = last_in_order + static_cast<std::int64_t>(rng.uniform(5));  // in order
      if (choice == 0) time = now + static_cast<std::int64_t>(rng.uniform(3));        // maybe earlier
      last_in_order = std::max(last_in_order, time);
      const FlowEventKind kind = choice == 1 ? FlowEventKind::kTimer : FlowEventKind::kStart;
      queue.push(TimePs(time), kind, subject);
      reference.emplace(time, seq++, (static_cast<std::uint32_t>(kind) << 30) | subject);
    }
    if (rng.uniform(3) == 0) {
      const auto flow = static_cast<std::uint32_t>(rng.uniform(50));
      const auto time = now + static_cast<std::int64_t>(rng.uniform(10));
      queue.set_last_byte(flow, TimePs(time));
      std::erase_if(reference, [&](const auto& e) { return std::get<2>(e) == ((1U << 30) | flow); });
      reference.emplace(time, seq++, (1U << 30) | flow);
    }
    ASSERT_EQ(queue.size(), reference.size());
    const auto pops = rng.uniform(25);
    for (std::uint64_t p = 0; p < pops && !reference.empty(); ++p) {
      const FlowEvent e = queue.pop();
      const auto [time, want_seq, tagged] = *reference.begin();  // a copy: the node is erased below
      ASSERT_EQ(e.time.value(), time);
      ASSERT_EQ(e.seq, want_seq);
      ASSERT_EQ(e.tagged, tagged);
      reference.erase(reference.begin());
      now = time;
      ++popped;
    }
  }
  EXPECT_EQ(queue.empty(), reference.empty());
  EXPECT_GT(popped, 10'000U);
}

}  // namespace
}  // namespace ct
