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

// Two lanes and the heap, scheduled in this order: lane 0 at 10 (seq 0) and 30 (seq 1), lane 1 at
// 10 (seq 2) and 20 (seq 3), the heap at 20 (seq 4), lane 0 at 15 (seq 5: earlier than the lane's
// last, so it waits in the heap). Order: 10/0, 10/2, 15/5, 20/3, 20/4, 30/1.
TEST(PacketEventQueue, LanesPopInTimeThenSchedulingOrder) {
  PacketEventQueue q;
  q.add_lanes(2);
  q.push_lane(0, TimePs(10), PacketEventKind::kArrive, 100);
  q.push_lane(0, TimePs(30), PacketEventKind::kArrive, 101);
  q.push_lane(1, TimePs(10), PacketEventKind::kCredit, 7, 55);
  q.push_lane(1, TimePs(20), PacketEventKind::kPause, 7, 0x13);
  q.push(TimePs(20), PacketEventKind::kTxDone, 3);
  q.push_lane(0, TimePs(15), PacketEventKind::kArrive, 102);
  EXPECT_EQ(q.size(), 6U);
  const std::vector<std::tuple<std::int64_t, std::uint64_t, PacketEventKind, std::uint32_t, std::uint32_t>> want = {
      {10, 0, PacketEventKind::kArrive, 100, 0}, {10, 2, PacketEventKind::kCredit, 7, 55},
      {15, 5, PacketEventKind::kArrive, 102, 0}, {20, 3, PacketEventKind::kPause, 7, 0x13},
      {20, 4, PacketEventKind::kTxDone, 3, 0},   {30, 1, PacketEventKind::kArrive, 101, 0}};
  for (const auto& [time, seq, kind, subject, payload] : want) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.top().seq, seq);
    const PacketEvent e = q.pop();
    EXPECT_EQ(e.time.value(), time);
    EXPECT_EQ(e.seq, seq);
    EXPECT_EQ(e.kind(), kind);
    EXPECT_EQ(e.subject(), subject);
    EXPECT_EQ(e.payload, payload);
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.size(), 0U);
}

// 200,000 random operations on 64 lanes: pushes to the heap, pushes to a lane mostly at or after
// its last time (ties on purpose: times on a 50 ps grid), sometimes before it, and pops; each pop
// must be the least (time, seq) of a sorted set holding every pending event.
TEST(PacketEventQueue, LanesKeepTheOrderOfOneHeapOfAllEvents) {
  PacketEventQueue q;
  constexpr std::uint32_t kLanes = 64;
  q.add_lanes(kLanes);
  std::vector<std::int64_t> last(kLanes, 0);
  std::set<std::tuple<std::int64_t, std::uint64_t, std::uint32_t>> reference;  // time, seq, subject
  std::uint64_t seq = 0;
  std::int64_t now = 0;
  Rng rng(7, 0, 0);
  for (int op = 0; op < 200'000; ++op) {
    const std::uint64_t what = rng.uniform(10);
    if (what < 4 && !reference.empty()) {
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
    if (what < 6) {
      const std::int64_t t = now + 50 * static_cast<std::int64_t>(rng.uniform(40));
      q.push(TimePs(t), PacketEventKind::kTxDone, subject);
      reference.emplace(t, seq++, subject);
      continue;
    }
    const auto lane = static_cast<std::uint32_t>(rng.uniform(kLanes));
    const std::int64_t floor = what < 9 ? std::max(now, last[lane]) : now;  // 1 in 10: may go before
    const std::int64_t t = floor + 50 * static_cast<std::int64_t>(rng.uniform(4));
    last[lane] = std::max(last[lane], t);
    q.push_lane(lane, TimePs(t), PacketEventKind::kArrive, subject);
    reference.emplace(t, seq++, subject);
  }
  EXPECT_EQ(q.size(), reference.size());
  while (!reference.empty()) {
    const auto want = *reference.begin();
    reference.erase(reference.begin());
    const PacketEvent e = q.pop();
    ASSERT_EQ(e.seq, std::get<1>(want));
  }
  EXPECT_TRUE(q.empty());
}

}  // namespace
}  // namespace ct
