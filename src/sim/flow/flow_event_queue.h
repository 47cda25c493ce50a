// The flow engine's event queue: a 4-ary min-heap in one dense array, ordered by (time, seq), where
// seq is the insertion sequence number. Two events at the same picosecond therefore pop in the
// order they were scheduled, never in an order that depends on addresses. Cancellation is lazy: an
// event carries the generation of its subject when scheduled and the engine drops it if the subject
// has moved on. A 4-ary heap halves the depth of a binary one and keeps a node's children in one
// or two cache lines; events are 24 bytes (the kind rides in the top bits of the subject).
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

#include "core/units.h"

namespace ct {

enum class FlowEventKind : std::uint8_t { kStart, kLastByte, kCapacity, kTimer };

struct FlowEvent {
  TimePs time;
  std::uint64_t seq = 0;
  std::uint32_t tagged = 0;      // kind << 30 | subject
  std::uint32_t generation = 0;  // kLastByte: the flow's generation when scheduled

  // Flow index, index of a scheduled capacity change, or timer tag; below 2^30.
  [[nodiscard]] std::uint32_t subject() const { return tagged & kSubjectMask; }
  [[nodiscard]] FlowEventKind kind() const { return static_cast<FlowEventKind>(tagged >> 30); }

  static constexpr std::uint32_t kSubjectMask = (1U << 30) - 1;
};

class FlowEventQueue {
 public:
  // PRECONDITION: subject < 2^30.
  void push(TimePs time, FlowEventKind kind, std::uint32_t subject, std::uint32_t generation = 0) {
    assert(subject <= FlowEvent::kSubjectMask);
    const FlowEvent e{time, next_seq_++, (static_cast<std::uint32_t>(kind) << 30) | subject, generation};
    std::size_t i = heap_.size();
    heap_.push_back(e);
    while (i > 0) {
      const std::size_t parent = (i - 1) / 4;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  // PRECONDITION: !empty().
  [[nodiscard]] const FlowEvent& top() const { return heap_.front(); }
  FlowEvent pop() {
    const FlowEvent top = heap_.front();
    const FlowEvent last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return top;
    std::size_t i = 0;
    while (true) {
      const std::size_t first = 4 * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t end = first + 4 < n ? first + 4 : n;
      for (std::size_t c = first + 1; c < end; ++c) {
        if (before(heap_[c], heap_[best])) best = c;
      }
      if (!before(heap_[best], last)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = last;
    return top;
  }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const { return heap_.size(); }

 private:
  static bool before(const FlowEvent& a, const FlowEvent& b) {
    if (a.time != b.time) return a.time < b.time;
    return a.seq < b.seq;
  }
  std::vector<FlowEvent> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace ct
