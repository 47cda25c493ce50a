// The flow engine's event queue, ordered by (time, seq) where seq is the scheduling sequence
// number: two events at the same picosecond pop in the order they were scheduled, never in an
// order that depends on addresses.
//
// Two 4-ary min-heaps in dense arrays, and two sorted runs, share the one sequence counter:
//   events     starts, capacity changes and timers, pushed once and popped once, when pushed out
//              of order;
//   in order   the same events when pushed at or after the time of the last one in order (a
//              fresh seq is always the largest, so such a push is already in (time, seq) order):
//              appended and consumed from the front in O(1), where a heap would sift each of the
//              millions of starts of a large collective, all at t = 0, through every level;
//   last bytes at most one per flow, indexed by flow (pos_[flow] = its slot in the heap), so a
//              re-solve that changes a flow's rate moves its one pending last byte (a fresh seq,
//              as a new push would get) instead of leaving a stale event behind. The heap holds
//              at most one entry per active flow, and no instant is spent popping dead events.
//   run        last bytes scheduled in bulk (set_last_bytes: a solve of many flows), sorted by
//              (time, seq) and consumed from the front; a flow moved or cancelled leaves a dead
//              entry there that is skipped. A bulk of k events merges into the run when k is at
//              least kMinRun and a quarter of the run's live events (so each event is merged O(1)
//              times on average); otherwise it goes into the last-byte heap one by one. The pops
//              of a run read memory in order, where a heap of millions of pending last bytes
//              misses the caches at every level of each pop.
// top() is the least of the four fronts by (time, seq): the pop order is exactly that of a
// single heap into which every scheduling had been pushed and whose superseded last bytes were
// dropped when popped. A 4-ary heap halves the depth of a binary one and keeps a node's children in
// one or two cache lines; events are 24 bytes (the kind rides in the top bits of the subject).
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/units.h"

namespace ct {

enum class FlowEventKind : std::uint8_t { kStart, kLastByte, kCapacity, kTimer };

struct FlowEvent {
  TimePs time;
  std::uint64_t seq = 0;
  std::uint32_t tagged = 0;  // kind << 30 | subject

  // Flow index, index of a scheduled capacity change, or timer tag; below 2^30.
  [[nodiscard]] std::uint32_t subject() const { return tagged & kSubjectMask; }
  [[nodiscard]] FlowEventKind kind() const { return static_cast<FlowEventKind>(tagged >> 30); }

  static constexpr std::uint32_t kSubjectMask = (1U << 30) - 1;
};

class FlowEventQueue {
 public:
  // Schedules a start, capacity change or timer. PRECONDITION: kind != kLastByte; subject < 2^30.
  void push(TimePs time, FlowEventKind kind, std::uint32_t subject) {
    assert(kind != FlowEventKind::kLastByte && subject <= FlowEvent::kSubjectMask);
    if (ordered_head_ == ordered_.size() || ordered_.back().time <= time) {
      ordered_.push_back(make(time, kind, subject));
      return;
    }
    events_.push_back(make(time, kind, subject));
    sift_up(events_, events_.size() - 1, nullptr);
  }
  // Room for `more` starts in order (a hint, FlowEngine::reserve_flows): millions of flows added at
  // one start time then fill one array instead of copying it at each doubling.
  void reserve_ordered(std::size_t more) {
    if (ordered_.capacity() - ordered_.size() < more) {
      ordered_.reserve(std::max(ordered_.size() + more, 2 * ordered_.capacity()));
    }
  }
  // Schedules flow's last byte at `time`, replacing the one pending, if any. PRECONDITION: flow < 2^30.
  void set_last_byte(std::uint32_t flow, TimePs time) {
    assert(flow <= FlowEvent::kSubjectMask);
    if (flow >= pos_.size()) pos_.resize(flow + 1, kNone);
    if (in_run(flow)) kill_in_run(flow);
    const FlowEvent e = make(time, FlowEventKind::kLastByte, flow);
    if (pos_[flow] == kNone) {
      last_.push_back(e);
      pos_[flow] = static_cast<std::uint32_t>(last_.size() - 1);
      sift_up(last_, last_.size() - 1, &pos_);
      return;
    }
    const std::size_t i = pos_[flow];
    const bool earlier = before(e, last_[i]);
    last_[i] = e;
    if (earlier) {
      sift_up(last_, i, &pos_);
    } else {
      sift_down(last_, i, &pos_);
    }
  }
  // The same as set_last_byte(flow, time) for each (flow, time) in order (the same sequence numbers,
  // the same pops), in bulk. PRECONDITION: no flow twice.
  void set_last_bytes(std::span<const std::pair<std::uint32_t, TimePs>> schedule) {
    const std::size_t live = run_live_;
    if (schedule.size() < kMinRun || schedule.size() * 4 < live) {
      for (const auto& [flow, time] : schedule) set_last_byte(flow, time);
      return;
    }
    bulk_.clear();
    for (const auto& [flow, time] : schedule) {
      assert(flow <= FlowEvent::kSubjectMask);
      if (flow >= pos_.size()) pos_.resize(flow + 1, kNone);
      cancel_last_byte(flow);
      bulk_.push_back(make(time, FlowEventKind::kLastByte, flow));
    }
    sort_by_time(bulk_);
    if (run_live_ == 0) {
      run_.swap(bulk_);  // nothing to merge with (a run with no live entry is empty)
    } else {
      merged_.clear();
      merged_.reserve(run_live_ + bulk_.size());
      std::size_t b = 0;
      for (std::size_t r = run_head_; r < run_.size(); ++r) {
        if (run_[r].seq == kDeadSeq) continue;
        while (b < bulk_.size() && before(bulk_[b], run_[r])) merged_.push_back(bulk_[b++]);
        merged_.push_back(run_[r]);
      }
      merged_.insert(merged_.end(), bulk_.begin() + static_cast<std::ptrdiff_t>(b), bulk_.end());
      run_.swap(merged_);
    }
    run_head_ = 0;
    run_live_ = run_.size();
    for (std::size_t r = 0; r < run_.size(); ++r) pos_[run_[r].subject()] = kInRun | static_cast<std::uint32_t>(r);
    if (run_.size() >= kKeepScratch) {
      release(bulk_);
      release(merged_);
      release(radix_scratch_);
    }
  }
  // Drops flow's pending last byte, if any.
  void cancel_last_byte(std::uint32_t flow) {
    if (flow >= pos_.size() || pos_[flow] == kNone) return;
    if (in_run(flow)) {
      kill_in_run(flow);
      return;
    }
    const std::size_t i = pos_[flow];
    pos_[flow] = kNone;
    const FlowEvent last = last_.back();
    last_.pop_back();
    if (i == last_.size()) return;
    const bool earlier = before(last, last_[i]);
    last_[i] = last;
    pos_[last.subject()] = static_cast<std::uint32_t>(i);
    if (earlier) {
      sift_up(last_, i, &pos_);
    } else {
      sift_down(last_, i, &pos_);
    }
  }
  // PRECONDITION: !empty().
  [[nodiscard]] const FlowEvent& top() const {
    switch (source()) {
      case Source::kRun: return run_[run_head_];
      case Source::kLast: return last_.front();
      case Source::kOrdered: return ordered_[ordered_head_];
      case Source::kEvents: break;
    }
    return events_.front();
  }
  FlowEvent pop() {
    const Source from = source();
    if (from == Source::kRun) {
      const FlowEvent top = run_[run_head_];
      kill_in_run(top.subject());
      return top;
    }
    if (from == Source::kLast) {
      const FlowEvent top = last_.front();
      cancel_last_byte(top.subject());
      return top;
    }
    if (from == Source::kOrdered) {
      const FlowEvent top = ordered_[ordered_head_++];
      if (ordered_head_ == ordered_.size()) {
        if (ordered_.size() >= kKeepScratch) {
          release(ordered_);
        } else {
          ordered_.clear();
        }
        ordered_head_ = 0;
      }
      return top;
    }
    const FlowEvent top = events_.front();
    events_.front() = events_.back();
    events_.pop_back();
    if (!events_.empty()) sift_down(events_, 0, nullptr);
    return top;
  }
  [[nodiscard]] bool empty() const {
    return events_.empty() && ordered_head_ == ordered_.size() && last_.empty() && run_live_ == 0;
  }
  [[nodiscard]] std::size_t size() const {
    return events_.size() + (ordered_.size() - ordered_head_) + last_.size() + run_live_;
  }
  [[nodiscard]] std::size_t pending_last_bytes() const { return last_.size() + run_live_; }

  static constexpr std::size_t kMinRun = 4096;
  // Working arrays that held this many events or more (24 MiB) are given back after use rather
  // than kept for the next bulk: the starts of a large collective at t = 0 and its one bulk of
  // last bytes would otherwise stay resident, three copies of every flow, through the whole run.
  static constexpr std::size_t kKeepScratch = std::size_t{1} << 20;

 private:
  static constexpr std::uint32_t kNone = 0xFFFF'FFFFU;
  static constexpr std::uint32_t kInRun = 0x8000'0000U;  // pos_: index in run_ below this bit
  static constexpr std::uint64_t kDeadSeq = ~std::uint64_t{0};
  enum class Source : std::uint8_t { kEvents, kOrdered, kLast, kRun };

  [[nodiscard]] bool in_run(std::uint32_t flow) const { return pos_[flow] != kNone && (pos_[flow] & kInRun) != 0; }
  // Marks flow's run entry dead and moves the run's head past dead entries.
  void kill_in_run(std::uint32_t flow) {
    run_[pos_[flow] & ~kInRun].seq = kDeadSeq;
    pos_[flow] = kNone;
    --run_live_;
    while (run_head_ < run_.size() && run_[run_head_].seq == kDeadSeq) ++run_head_;
    if (run_head_ == run_.size()) {
      run_.clear();
      run_head_ = 0;
    }
  }
  [[nodiscard]] Source source() const {
    Source best = Source::kEvents;
    const FlowEvent* least = events_.empty() ? nullptr : &events_.front();
    if (ordered_head_ != ordered_.size() && (least == nullptr || before(ordered_[ordered_head_], *least))) {
      best = Source::kOrdered;
      least = &ordered_[ordered_head_];
    }
    if (!last_.empty() && (least == nullptr || before(last_.front(), *least))) {
      best = Source::kLast;
      least = &last_.front();
    }
    if (run_live_ != 0 && (least == nullptr || before(run_[run_head_], *least))) best = Source::kRun;
    return best;
  }

  // Sorts events whose sequences increase in their order by (time, seq): a stable sort by time. A
  // least-significant-digit radix sort on the time's offset from the least, 11 bits a pass (three
  // passes when the times span under 2^33 ps, 8.6 ms; four under 17 s), where a comparison sort of
  // millions of 24-byte events makes about log2(n) passes over them.
  void sort_by_time(std::vector<FlowEvent>& events) {
    const auto [low, high] = std::minmax_element(events.begin(), events.end(),
                                                 [](const FlowEvent& a, const FlowEvent& b) { return a.time < b.time; });
    const auto base = low->time.value();
    const auto span = static_cast<std::uint64_t>(high->time.value() - base);
    constexpr int kBits = 11;
    if (span == 0) return;  // all at one time: already in order
    radix_scratch_.resize(events.size());
    for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += kBits) {
      std::array<std::uint32_t, (1U << kBits) + 1> offset{};
      const auto digit = [&](const FlowEvent& e) {
        return (static_cast<std::uint64_t>(e.time.value() - base) >> shift) & ((1U << kBits) - 1);
      };
      for (const FlowEvent& e : events) ++offset[digit(e) + 1];
      for (std::size_t d = 1; d < offset.size(); ++d) offset[d] += offset[d - 1];
      for (const FlowEvent& e : events) radix_scratch_[offset[digit(e)]++] = e;
      events.swap(radix_scratch_);
    }
  }

  static void release(std::vector<FlowEvent>& events) { std::vector<FlowEvent>().swap(events); }
  FlowEvent make(TimePs time, FlowEventKind kind, std::uint32_t subject) {
    return {time, next_seq_++, (static_cast<std::uint32_t>(kind) << 30) | subject};
  }
  static bool before(const FlowEvent& a, const FlowEvent& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.seq < b.seq;
  }
  // `pos` (the last-byte heap's index by flow) follows every move when given.
  static void place(std::vector<FlowEvent>& heap, std::size_t i, const FlowEvent& e, std::vector<std::uint32_t>* pos) {
    heap[i] = e;
    if (pos != nullptr) (*pos)[e.subject()] = static_cast<std::uint32_t>(i);
  }
  static void sift_up(std::vector<FlowEvent>& heap, std::size_t i, std::vector<std::uint32_t>* pos) {
    const FlowEvent e = heap[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / 4;
      if (!before(e, heap[parent])) break;
      place(heap, i, heap[parent], pos);
      i = parent;
    }
    place(heap, i, e, pos);
  }
  static void sift_down(std::vector<FlowEvent>& heap, std::size_t i, std::vector<std::uint32_t>* pos) {
    const FlowEvent e = heap[i];
    const std::size_t n = heap.size();
    while (true) {
      const std::size_t first = 4 * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t end = first + 4 < n ? first + 4 : n;
      for (std::size_t c = first + 1; c < end; ++c) {
        if (before(heap[c], heap[best])) best = c;
      }
      if (!before(heap[best], e)) break;
      place(heap, i, heap[best], pos);
      i = best;
    }
    place(heap, i, e, pos);
  }

  std::vector<FlowEvent> events_;
  std::vector<FlowEvent> ordered_;  // pushed in (time, seq) order; consumed from ordered_head_
  std::size_t ordered_head_ = 0;
  std::vector<FlowEvent> last_;
  std::vector<std::uint32_t> pos_;  // flow -> slot in last_, kInRun | index in run_, or kNone
  std::vector<FlowEvent> run_;      // sorted by (time, seq); dead entries have seq kDeadSeq
  std::size_t run_head_ = 0;        // first live entry of run_ (run_.size() when none)
  std::size_t run_live_ = 0;
  std::vector<FlowEvent> bulk_;
  std::vector<FlowEvent> merged_;
  std::vector<FlowEvent> radix_scratch_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace ct
