#include "sim/queue_statistics.h"

#include <algorithm>

namespace ct {
namespace {

constexpr std::uint32_t kNoTrack = 0xFFFF'FFFFU;

}  // namespace

void QueueStatistics::widen(TimePs at) {
  while (at.value() >= kBins * width_.value()) {
    for (Track& t : tracks_) {
      for (std::int64_t b = 0; b < kBins / 2; ++b) {
        const auto lo = static_cast<std::size_t>(2 * b);
        t.byte_ps[static_cast<std::size_t>(b)] = t.byte_ps[lo] + t.byte_ps[lo + 1];
        t.peak[static_cast<std::size_t>(b)] = std::max(t.peak[lo], t.peak[lo + 1]);
      }
      std::fill(t.byte_ps.begin() + kBins / 2, t.byte_ps.end(), 0.0);
      std::fill(t.peak.begin() + kBins / 2, t.peak.end(), 0);
    }
    width_ = TimePs(width_.value() * 2);
  }
}

// Integrates the track's bytes from its last report to `to` (< kBins x width) bin by bin.
void QueueStatistics::advance(Track& t, TimePs to) const {
  const std::int64_t w = width_.value();
  std::int64_t from = t.since.value();
  while (from < to.value()) {
    const std::int64_t bin = from / w;
    const std::int64_t until = std::min(to.value(), (bin + 1) * w);
    const auto b = static_cast<std::size_t>(bin);
    t.byte_ps[b] += static_cast<double>(t.bytes) * static_cast<double>(until - from);
    t.peak[b] = std::max(t.peak[b], t.bytes);
    from = until;
  }
  t.since = to;
}

void QueueStatistics::on_queue(std::uint32_t r, TimePs at, std::int64_t bytes) {
  widen(at);
  if (r >= slot_.size()) slot_.resize(r + 1, kNoTrack);
  if (slot_[r] == kNoTrack) {
    slot_[r] = static_cast<std::uint32_t>(tracks_.size());
    Track& t = tracks_.emplace_back();
    t.byte_ps.assign(kBins, 0.0);
    t.peak.assign(kBins, 0);
  }
  Track& t = tracks_[slot_[r]];
  advance(t, at);
  t.bytes = bytes;
  const auto b = static_cast<std::size_t>(at.value() / width_.value());
  t.peak[b] = std::max(t.peak[b], bytes);
}

void QueueStatistics::add_series(SimulationResult& result, std::uint32_t queues) {
  const TimePs end = result.makespan;
  if (queues == 0 || end.value() <= 0) return;
  widen(end);
  std::vector<std::uint32_t> order;
  for (std::uint32_t r = 0; r < slot_.size(); ++r) {
    if (slot_[r] != kNoTrack && result.stats[r].mean_queue_bytes > 0) order.push_back(r);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const ResourceStats& x = result.stats[a];
    const ResourceStats& y = result.stats[b];
    if (x.mean_queue_bytes != y.mean_queue_bytes) return x.mean_queue_bytes > y.mean_queue_bytes;
    if (x.peak_queue_bytes != y.peak_queue_bytes) return x.peak_queue_bytes > y.peak_queue_bytes;
    return a < b;
  });
  order.resize(std::min<std::size_t>(order.size(), queues));
  const std::int64_t w = width_.value();
  const std::int64_t bins = (end.value() + w - 1) / w;
  result.queue_bin = width_;
  for (const std::uint32_t r : order) {
    Track& t = tracks_[slot_[r]];
    advance(t, end);
    QueueSeries s{r, {}, {}};
    for (std::int64_t b = 0; b < bins; ++b) {
      const auto covered = static_cast<double>(std::min(w, end.value() - b * w));
      s.mean_bytes.push_back(t.byte_ps[static_cast<std::size_t>(b)] / covered);
      s.peak_bytes.push_back(t.peak[static_cast<std::size_t>(b)]);
    }
    result.queue_series.push_back(std::move(s));
  }
}

}  // namespace ct
