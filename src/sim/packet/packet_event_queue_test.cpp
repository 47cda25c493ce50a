// The event queue's lanes change where events wait, never the order they pop in: (time, seq),
// seq the order they were scheduled. Checked by hand on a few events, and against a plain sorted
// set of every pending event over a long random mix of heap and lane events, ties and all.
#include "sim/packet/packet_event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "core/rng.h"

namespace ct {
namespace {

using Want = std::tuple<std::int64_t, std::uint64_t, PacketEventKind, std::uint32_t, std::uint32_t>;

void expect_pops(PacketEventQueue& q, const std::vector<Want>& want) {
  for (const auto& [time, seq, kind, subject, payload] : want) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.top().seq, seq);
    const PacketEvent e = q.pop();
    EXPECT_EQ(e.time.value(), time);
    EXPECT_EQ(e.seq, seq);
    EXPECT_EQ(e.kind(), kind);
    EXPECT_EQ(e.subject(), subject);
    EXPECT_EQ(e.payload, payload);
    EXPECT_EQ(q.now().value(), time);
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0U);
}

// Before any pop (now 0), scheduled in this order: delay 10 (seq 0), delay 30 (seq 1), delay 10
// again (seq 2: the same lane, behind seq 0), delay 20 (seq 3), the heap at 20 (seq 4), delay 15
// (seq 5), delay 10 once more (seq 6). Three lanes hold 10/0 10/2 10/6, 30/1, 20/3 and 15/5; the
// heap 20/4. Order: 10/0, 10/2, 10/6, 15/5, 20/3, 20/4, 30/1.
TEST(PacketEventQueue, LanesPopInTimeThenSchedulingOrder) {
  PacketEventQueue q;
  q.push_lane(TimePs(10), PacketEventKind::kArrive, 100);
  q.push_lane(TimePs(30), PacketEventKind::kArrive, 101);
  q.push_lane(TimePs(10), PacketEventKind::kCredit, 7, 55);
  q.push_lane(TimePs(20), PacketEventKind::kPause, 7, 0x13);
  q.push(TimePs(20), PacketEventKind::kTxDone, 3);
  q.push_lane(TimePs(15), PacketEventKind::kArrive, 102);
  q.push_lane(TimePs(10), PacketEventKind::kTxDone, 8);
  EXPECT_EQ(q.size(), 7U);
  EXPECT_EQ(q.lanes(), 4U);  // delays 10, 30, 20, 15
  expect_pops(q, {{10, 0, PacketEventKind::kArrive, 100, 0},
                  {10, 2, PacketEventKind::kCredit, 7, 55},
                  {10, 6, PacketEventKind::kTxDone, 8, 0},
                  {15, 5, PacketEventKind::kArrive, 102, 0},
                  {20, 3, PacketEventKind::kPause, 7, 0x13},
                  {20, 4, PacketEventKind::kTxDone, 3, 0},
                  {30, 1, PacketEventKind::kArrive, 101, 0}});
}

// A lane is keyed by the delay from the last pop, not by the time, and ties at one time pop in
// scheduling order across lanes and the heap. Scheduled at 0: 10 (delay 10, seq 0, the lane of
// delay 10) and 20 (delay 20, seq 1, the lane of delay 20). Pop 10/0: the lane of delay 10 is
// empty. At 10: 20 (delay 10, seq 2) goes to the lane of delay 10, not to seq 1's lane of delay 20
// though both are at 20; 20 through the heap (seq 3); 10 (delay 0, seq 4) opens a lane of delay 0.
// Order: 10/4, then the three at 20 by seq: 20/1 (lane 20), 20/2 (lane 10), 20/3 (heap).
TEST(PacketEventQueue, LanesAreKeyedByTheDelayFromTheLastPop) {
  PacketEventQueue q;
  q.push_lane(TimePs(10), PacketEventKind::kTxDone, 1);
  q.push_lane(TimePs(20), PacketEventKind::kArrive, 2);
  EXPECT_EQ(q.pop().seq, 0U);
  EXPECT_EQ(q.now().value(), 10);
  q.push_lane(TimePs(20), PacketEventKind::kTxDone, 1);
  q.push(TimePs(20), PacketEventKind::kStart, 9);
  q.push_lane(TimePs(10), PacketEventKind::kCredit, 4, 77);
  EXPECT_EQ(q.lanes(), 3U);  // delays 10, 20, 0
  expect_pops(q, {{10, 4, PacketEventKind::kCredit, 4, 77},
                  {20, 1, PacketEventKind::kArrive, 2, 0},
                  {20, 2, PacketEventKind::kTxDone, 1, 0},
                  {20, 3, PacketEventKind::kStart, 9, 0}});
}

// Each pop must be the least (time, seq) of a sorted set holding every pending event: `ops`
// random operations over `delays` delays: pushes to the heap at any time from now on, pushes to
// the lane of a delay (ties on purpose: times on a 50 ps grid, delays 0 and up), sometimes a push
// earlier than the last pop (then alone in the heap), and pops.
void check_against_sorted_set(std::uint64_t seed, int ops, std::uint64_t delays) {
  PacketEventQueue q;
  std::set<std::tuple<std::int64_t, std::uint64_t, std::uint32_t>> reference;  // time, seq, subject
  std::uint64_t seq = 0;
  std::int64_t now = 0;
  Rng rng(seed, 0, 0);
  for (int op = 0; op < ops; ++op) {
    const std::uint64_t what = rng.uniform(20);
    if (what < 8 && !reference.empty()) {
      const auto want = *reference.begin();
      reference.erase(reference.begin());
      const PacketEvent e = q.pop();
      ASSERT_EQ(e.time.value(), std::get<0>(want)) << "op " << op;
      ASSERT_EQ(e.seq, std::get<1>(want)) << "op " << op;
      ASSERT_EQ(e.subject(), std::get<2>(want)) << "op " << op;
      now = e.time.value();
      continue;
    }
    const auto subject = static_cast<std::uint32_t>(op);
    std::int64_t t = 0;
    if (what < 11) {
      t = now + 50 * static_cast<std::int64_t>(rng.uniform(40));
      q.push(TimePs(t), PacketEventKind::kTxDone, subject);
    } else if (what < 19 || now == 0) {
      t = now + 50 * static_cast<std::int64_t>(rng.uniform(delays));
      q.push_lane(TimePs(t), PacketEventKind::kArrive, subject);
    } else {
      t = now - 50 * static_cast<std::int64_t>(1 + rng.uniform(3));  // before the last pop
      if (t < 0) t = 0;
      q.push_lane(TimePs(t), PacketEventKind::kArrive, subject);
    }
    reference.emplace(t, seq++, subject);
    ASSERT_EQ(q.size(), reference.size());
  }
  while (!reference.empty()) {
    const auto want = *reference.begin();
    reference.erase(reference.begin());
    const PacketEvent e = q.pop();
    ASSERT_EQ(e.time.value(), std::get<0>(want));
    ASSERT_EQ(e.seq, std::get<1>(want));
  }
  EXPECT_TRUE(q.empty());
  EXPECT_LE(q.lanes(), std::min<std::size_t>(delays + 1, PacketEventQueue::kMaxLanes));
}

TEST(PacketEventQueue, LanesKeepTheOrderOfOneHeapOfAllEvents) {
  check_against_sorted_set(7, 200'000, 12);  // few delays: long lanes
  check_against_sorted_set(8, 200'000, 400);  // a lane per delay, mostly one event long
}

// More delays than lanes: the events of the delays that found no lane wait in the heap by
// themselves, in the same order.
TEST(PacketEventQueue, DelaysBeyondTheLanesWaitInTheHeap) {
  check_against_sorted_set(9, 100'000, 3 * PacketEventQueue::kMaxLanes);
}

}  // namespace
}  // namespace ct
