// The packet engine's event queue: a 4-ary min-heap in one dense array, ordered by (time, seq)
// where seq is the scheduling sequence number. Two events at the same picosecond pop in the order
// they were scheduled, never in an order that depends on addresses, so a run is the same bytes for
// the same input. Events are 24 bytes: the time, the sequence number, the kind in the top 3 bits of
// the subject (a packet, a channel, a flow or a scheduled change, below 2^29) and one word of
// payload (a credit return's blocks and virtual lane).
//
// The heap holds what is in flight: per channel at most one end of serialization, per packet at
// most one arrival, per credit return one event; so its size is bounded by the packets the credits
// let into the network, not by the workload's size.
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

#include "core/units.h"

namespace ct {

enum class PacketEventKind : std::uint8_t { kStart, kTxDone, kArrive, kCredit, kRate, kTimer, kPause, kCongestion };

struct PacketEvent {
  TimePs time;
  std::uint64_t seq = 0;
  std::uint32_t tagged = 0;  // kind << 29 | subject
  std::uint32_t payload = 0;

  static constexpr std::uint32_t kSubjectMask = (1U << 29) - 1;
  [[nodiscard]] std::uint32_t subject() const { return tagged & kSubjectMask; }
  [[nodiscard]] PacketEventKind kind() const { return static_cast<PacketEventKind>(tagged >> 29); }
};

class PacketEventQueue {
 public:
  // PRECONDITION: subject < 2^29.
  void push(TimePs time, PacketEventKind kind, std::uint32_t subject, std::uint32_t payload = 0) {
    assert(subject <= PacketEvent::kSubjectMask);
    PacketEvent e{time, seq_++, (static_cast<std::uint32_t>(kind) << 29) | subject, payload};
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

  [[nodiscard]] bool empty() const { return heap_.empty(); }
  [[nodiscard]] std::size_t size() const { return heap_.size(); }
  [[nodiscard]] const PacketEvent& top() const { return heap_.front(); }

  // PRECONDITION: !empty().
  PacketEvent pop() {
    const PacketEvent out = heap_.front();
    const PacketEvent last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return out;
    std::size_t i = 0;
    for (;;) {
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
    return out;
  }

 private:
  static bool before(const PacketEvent& a, const PacketEvent& b) {
    return a.time != b.time ? a.time < b.time : a.seq < b.seq;
  }

  std::vector<PacketEvent> heap_;
  std::uint64_t seq_ = 0;
};

}  // namespace ct
