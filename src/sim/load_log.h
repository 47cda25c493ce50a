// A log of load changes (resource, time, load) for the time series (sim/link_statistics.h), kept
// cheaply by an engine that makes tens of millions of them.
//
// Model. The changes come in time order. They are kept in fixed-size segments that are allocated
// as the log grows and never copied: an entry is 8 bytes, the time since the previous entry of
// its segment (a gap of 2^32 ps or more opens a new segment, whose start time is its first
// entry's), then the resource (24 bits) and the index of its load (8 bits) in a table of the
// distinct loads seen (an engine's loads are a link's rate or 0, a few values); a resource of
// 2^24 or more or a load index of 255 or more takes a second entry that holds both in full. The
// log keeps at most `limit` changes: when the limit is reached the series would be dropped
// (LinkStatistics::add_series), so the log then frees what it holds, keeps nothing more and says
// it is full.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/units.h"

namespace ct {

class LoadLog {
 public:
  static constexpr std::uint32_t kSegmentEntries = 1U << 16;  // 512 KiB a segment

  // Keeps nothing until limit() is set. `segment_entries` (at least 2) is for tests.
  explicit LoadLog(std::uint32_t segment_entries = kSegmentEntries) : segment_entries_(segment_entries) {}

  // Keeps the first `limit` changes; reaching it makes the log full. Before the first add().
  void set_limit(std::size_t limit) { limit_ = limit; }

  // Resource r's load became `load` at `at`. PRECONDITION: `at` is not before the previous change's.
  void add(std::uint32_t r, TimePs at, double load) {
    if (count_ >= limit_) return;
    const std::int64_t gap = at.value() - last_.value();
    const std::uint32_t v = value_index(load);
    const bool wide = r >= (1U << 24) || v >= kWide;
    const std::uint32_t entries = wide ? 2 : 1;
    if (segments_.empty() || segments_.back().size + entries > segment_entries_ || gap >= (std::int64_t{1} << 32)) {
      open_segment(at);
    }
    Segment& s = segments_.back();
    const auto since = static_cast<std::uint32_t>(at.value() - last_.value());
    if (wide) {
      s.entries[s.size++] = Entry{since, kWide};
      s.entries[s.size++] = Entry{r, v};
    } else {
      s.entries[s.size++] = Entry{since, r << 8 | v};
    }
    last_ = at;
    if (++count_ == limit_) {
      full_ = true;
      segments_.clear();
      segments_.shrink_to_fit();
    }
  }

  // The limit was reached: nothing is kept.
  [[nodiscard]] bool full() const { return full_; }
  // The changes kept.
  [[nodiscard]] std::size_t size() const { return full_ ? 0 : count_; }

  // f(resource, time, load) for each change kept, in order.
  template <typename F>
  void for_each(F&& f) const {
    for (const Segment& s : segments_) {
      std::int64_t t = s.begin.value();
      for (std::uint32_t e = 0; e < s.size; ++e) {
        const Entry& x = s.entries[e];
        t += x.gap;
        if ((x.key & 0xFF) == kWide) {
          const Entry& y = s.entries[++e];
          f(y.gap, TimePs(t), values_[y.key]);
        } else {
          f(x.key >> 8, TimePs(t), values_[x.key & 0xFF]);
        }
      }
    }
  }

 private:
  // A wide change's second entry holds the resource in `gap` and the load index in `key`.
  struct Entry {
    std::uint32_t gap;  // ps since the previous entry of the segment (its start for the first)
    std::uint32_t key;  // resource << 8 | index in values_; kWide: the next entry holds them
  };
  static_assert(sizeof(Entry) == 8);
  static constexpr std::uint32_t kWide = 0xFF;
  struct Segment {
    TimePs begin;
    std::uint32_t size = 0;
    std::unique_ptr<Entry[]> entries;
  };
  static constexpr std::uint32_t kNoValue = 0xFFFFFFFFU;

  void open_segment(TimePs at) {
    segments_.push_back(Segment{at, 0, std::make_unique_for_overwrite<Entry[]>(segment_entries_)});
    last_ = at;
  }

  // The load's index, by its bits (a load and its copy are the same double); a small direct-mapped
  // cache in front of the table's map.
  std::uint32_t value_index(double load) {
    const auto bits = std::bit_cast<std::uint64_t>(load);
    Cached& c = cache_[(bits * 0x9E3779B97F4A7C15ULL) >> 58];
    if (c.index != kNoValue && c.bits == bits) return c.index;
    const auto [it, added] = index_.try_emplace(bits, static_cast<std::uint32_t>(values_.size()));
    if (added) values_.push_back(load);
    c = Cached{bits, it->second};
    return it->second;
  }
  struct Cached {
    std::uint64_t bits = 0;
    std::uint32_t index = kNoValue;
  };

  std::uint32_t segment_entries_;
  std::size_t limit_ = 0;
  std::size_t count_ = 0;
  bool full_ = false;
  TimePs last_{0};
  std::vector<Segment> segments_;
  std::vector<double> values_;
  std::unordered_map<std::uint64_t, std::uint32_t> index_;
  std::array<Cached, 64> cache_{};
};

}  // namespace ct
