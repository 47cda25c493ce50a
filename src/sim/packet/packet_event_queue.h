// The packet engine's event queue: a 4-ary min-heap in one dense array, ordered by (time, seq)
// where seq is the scheduling sequence number. Two events at the same picosecond pop in the order
// they were scheduled, never in an order that depends on addresses, so a run is the same bytes for
// the same input. Events are 24 bytes: the time, the sequence number, the kind in the top 3 bits of
// the subject (a packet, a channel, a flow or a scheduled change, below 2^28) and one word of
// payload (a credit return's blocks and virtual lane).
//
// Lanes by delay. Most events are scheduled a fixed delay after the event that schedules them: a
// channel's end of serialization (a packet's serialization time at the channel's rate), a packet's
// arrival at the far end (its serialization, the cable's propagation, the switch's latency), a
// credit or PAUSE frame (the propagation back), a CNP (its path's latency). A run has few distinct
// delays (a few packet sizes, rates and cable lengths), and the events of one delay D, scheduled at
// the time of the last pop (which never falls) plus D, come in (time, seq) order. Each delay has a
// lane, a FIFO, and the heap holds only each lane's head, keyed by the head's own (time, seq):
// since every lane is in (time, seq) order, the heap's least key is still the least of all pending
// events, and events pop in exactly the order of one heap of them all. The heap then holds one
// entry per delay in use (6 in the 8,192-host permutation of bench_packet) instead of one per busy
// channel (tens of thousands there), and the lanes are read and written in order, not at random.
// A lane's events sit in chunks of kChunk from one pool; a chunk its lane has emptied is the next
// one taken, while its lines are still in the cache. An event that would go before its lane's last
// one (scheduled before the last pop's time, which the engine never does) or that finds every lane
// taken waits in the heap by itself, as do the events of push().
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
  // PRECONDITION: subject < 2^28.
  void push(TimePs time, PacketEventKind kind, std::uint32_t subject, std::uint32_t payload = 0) {
    push_heap(make(time, kind, subject, payload));
  }

  // The same as push(), the event kept in the lane of its delay (time - now()) while it is not the
  // lane's head (in the heap when the time is before now()). PRECONDITION: subject < 2^28; fewer
  // than 2^32 events pending in the lanes.
  void push_lane(TimePs time, PacketEventKind kind, std::uint32_t subject, std::uint32_t payload = 0) {
    const PacketEvent e = make(time, kind, subject, payload);
    const std::uint32_t lane = lane_of(time - now_);
    if (lane == kNoLane) {
      push_heap(e);
      return;
    }
    Lane& l = lanes_[lane];
    if (l.count == 0) {
      append(l, e);
      push_heap({time, e.seq, e.tagged | kInLane, lane});
    } else if (time < l.last) {
      push_heap(e);  // earlier than the lane's last: on its own
    } else {
      append(l, e);
    }
  }
  // The time of the last event popped (0 before the first).
  [[nodiscard]] TimePs now() const { return now_; }
  // Lanes made so far (one per delay of push_lane(), at most kMaxLanes).
  [[nodiscard]] std::size_t lanes() const { return lanes_.size(); }
  static constexpr std::size_t kMaxLanes = 4096;

  [[nodiscard]] bool empty() const { return heap_.empty(); }
  // Pending events, in the heap and in the lanes.
  [[nodiscard]] std::size_t size() const { return pending_; }
  // The next event's kind and subject (its time and sequence number; not its payload).
  // PRECONDITION: !empty().
  [[nodiscard]] PacketEvent top() const {
    PacketEvent e = heap_.front();
    e.tagged &= ~kInLane;
    return e;
  }
  // Starts loading what the next pop() reads of the next event's lane.
  void prefetch_top() const {
    if (heap_.empty() || (heap_.front().tagged & kInLane) == 0) return;
    const Lane& l = lanes_[heap_.front().payload];
    __builtin_prefetch(&chunks_[l.head]);
    if ((l.head + 1) % kChunk != 0) __builtin_prefetch(&chunks_[l.head + 1]);
  }

  // PRECONDITION: !empty().
  PacketEvent pop() {
    --pending_;
    const PacketEvent top = heap_.front();
    now_ = top.time;
    if ((top.tagged & kInLane) == 0) {
      remove_top();
      return top;
    }
    Lane& l = lanes_[top.payload];
    const PacketEvent out = chunks_[l.head];
    ++l.head;
    if (--l.count == 0) {
      remove_top();
      free_.push_back((l.head - 1) / kChunk);
    } else {
      if (l.head % kChunk == 0) {
        const std::uint32_t done = l.head / kChunk - 1;
        l.head = next_chunk_[done] * kChunk;
        free_.push_back(done);
      }
      const PacketEvent& next = chunks_[l.head];
      sift_down({next.time, next.seq, next.tagged | kInLane, top.payload});
    }
    return out;
  }

 private:
  // In the heap, the flag of a lane's head; the entry's payload is then the lane (the event's own
  // payload stays in the lane).
  static constexpr std::uint32_t kInLane = 1U << 28;
  static constexpr std::uint32_t kChunk = 32;  // events a chunk (768 B)

  static constexpr std::uint32_t kNoLane = 0xFFFF'FFFFU;

  // A FIFO in a chain of chunks of chunks_: `head` the index of its first event, `tail` one past
  // its last (both within the chain), `count` its events. `last`: the time of the event appended last.
  struct Lane {
    std::uint32_t head = 0;
    std::uint32_t tail = 0;
    std::uint32_t count = 0;
    TimePs delay{0};
    TimePs last{0};
  };

  // The lane of `delay` (made at its first use), kNoLane when it is negative or every lane is
  // taken. An open-addressing table of lane numbers, at most half full.
  std::uint32_t lane_of(TimePs delay) {
    if (delay.value() < 0) return kNoLane;
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash(delay) & mask;
    for (;; i = (i + 1) & mask) {
      const std::uint32_t lane = slots_[i];
      if (lane == kNoLane) break;
      if (lanes_[lane].delay == delay) return lane;
    }
    if (lanes_.size() >= kMaxLanes) return kNoLane;
    const auto lane = static_cast<std::uint32_t>(lanes_.size());
    lanes_.push_back(Lane{.delay = delay});
    slots_[i] = lane;
    if (2 * lanes_.size() > slots_.size()) rehash();
    return lane;
  }
  static std::size_t hash(TimePs delay) {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(delay.value()) * 0x9E3779B97F4A7C15ULL) >> 32);
  }
  void rehash() {
    slots_.assign(2 * slots_.size(), kNoLane);
    const std::size_t mask = slots_.size() - 1;
    for (std::uint32_t lane = 0; lane < lanes_.size(); ++lane) {
      std::size_t i = hash(lanes_[lane].delay) & mask;
      while (slots_[i] != kNoLane) i = (i + 1) & mask;
      slots_[i] = lane;
    }
  }

  PacketEvent make(TimePs time, PacketEventKind kind, std::uint32_t subject, std::uint32_t payload) {
    assert(subject < kInLane);
    ++pending_;
    return {time, seq_++, (static_cast<std::uint32_t>(kind) << 29) | subject, payload};
  }

  void append(Lane& l, const PacketEvent& e) {
    if (l.count == 0) {
      l.head = l.tail = take_chunk() * kChunk;
    } else if (l.tail % kChunk == 0) {
      const std::uint32_t chunk = take_chunk();
      next_chunk_[l.tail / kChunk - 1] = chunk;
      l.tail = chunk * kChunk;
    }
    chunks_[l.tail++] = e;
    ++l.count;
    l.last = e.time;
  }

  // The chunk a lane gave back last (still in the cache), or a new one.
  std::uint32_t take_chunk() {
    if (!free_.empty()) {
      const std::uint32_t chunk = free_.back();
      free_.pop_back();
      return chunk;
    }
    const auto chunk = static_cast<std::uint32_t>(next_chunk_.size());
    next_chunk_.push_back(0);
    chunks_.resize(chunks_.size() + kChunk);
    return chunk;
  }

  void push_heap(const PacketEvent& e) {
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

  void remove_top() {
    const PacketEvent last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
  }

  // Puts `e` in the root's place and moves it down to where it belongs. PRECONDITION: !empty().
  void sift_down(const PacketEvent& e) {
    const std::size_t n = heap_.size();
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = 4 * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      const std::size_t end = first + 4 < n ? first + 4 : n;
      for (std::size_t c = first + 1; c < end; ++c) {
        if (before(heap_[c], heap_[best])) best = c;
      }
      if (!before(heap_[best], e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  static bool before(const PacketEvent& a, const PacketEvent& b) {
    return a.time != b.time ? a.time < b.time : a.seq < b.seq;
  }

  std::vector<PacketEvent> heap_;
  std::vector<Lane> lanes_;
  std::vector<std::uint32_t> slots_ = std::vector<std::uint32_t>(16, kNoLane);  // lane_of()'s table
  std::vector<PacketEvent> chunks_;       // the lanes' events, kChunk a chunk
  std::vector<std::uint32_t> next_chunk_;  // by chunk: the next of its lane
  std::vector<std::uint32_t> free_;        // chunks no lane uses, the last given back on top
  std::size_t pending_ = 0;
  std::uint64_t seq_ = 0;
  TimePs now_{0};
};

}  // namespace ct
