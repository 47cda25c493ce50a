// The flow engine's event queue: a binary min-heap in one dense array, ordered by (time, seq),
// where seq is the insertion sequence number. Two events at the same picosecond therefore pop in
// the order they were scheduled, never in an order that depends on addresses. Cancellation is
// lazy: an event carries the generation of its subject when scheduled and the engine drops it if
// the subject has moved on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/units.h"

namespace ct {

enum class FlowEventKind : std::uint8_t { kStart, kLastByte, kCapacity };

struct FlowEvent {
  TimePs time;
  std::uint64_t seq = 0;
  std::uint32_t subject = 0;     // flow index, or index of a scheduled capacity change
  std::uint32_t generation = 0;  // kLastByte: the flow's generation when scheduled
  FlowEventKind kind = FlowEventKind::kStart;
};

class FlowEventQueue {
 public:
  void push(TimePs time, FlowEventKind kind, std::uint32_t subject, std::uint32_t generation = 0) {
    heap_.push_back({time, next_seq_++, subject, generation, kind});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  // PRECONDITION: !empty().
  [[nodiscard]] const FlowEvent& top() const { return heap_.front(); }
  FlowEvent pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const FlowEvent e = heap_.back();
    heap_.pop_back();
    return e;
  }
  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const { return heap_.size(); }

 private:
  struct Later {
    bool operator()(const FlowEvent& a, const FlowEvent& b) const {
      if (a.time != b.time) return a.time > b.time;
      return a.seq > b.seq;
    }
  };
  std::vector<FlowEvent> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace ct
