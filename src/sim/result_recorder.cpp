#include "sim/result_recorder.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ct {

ResultRecorder::ResultRecorder(const Fabric& fabric, const Workload& workload, bool series, OnResource on_resource)
    : t_(fabric.topology()), w_(workload), on_resource_(std::move(on_resource)), link_stats_(series) {
  directed_.assign(2 * t_.link_count(), kNoIndex);
  const auto gpus = static_cast<std::size_t>(t_.host_count) * static_cast<std::size_t>(std::max(t_.gpus_per_host, 1));
  nvlink_out_.assign(gpus, kNoIndex);
  nvlink_in_.assign(gpus, kNoIndex);
  if (const auto& nvlink = fabric.spec().node.nvlink_bytes_per_s) {
    // The catalog's figure (bytes/s, both directions added) made a typed rate once, per direction.
    nvlink_direction_ = BitsPerSecond(std::llround(*nvlink / 2 * 8));
  }
  open_result(result_, w_);
  record_of_flow_.assign(w_.flows.size(), kNoIndex);
  flow_of_record_.reserve(w_.flows.size());
}

namespace {

std::uint32_t add_resource(SimulationResult& result, LinkStatistics& stats, const ResourceInfo& info,
                           const ResultRecorder::OnResource& on_resource) {
  const auto index = static_cast<std::uint32_t>(result.resources.size());
  result.resources.push_back(info);
  result.stats.emplace_back();
  stats.add_resource();
  on_resource(index, info);
  return index;
}

}  // namespace

std::uint32_t ResultRecorder::directed(std::uint32_t directed_link) {
  std::uint32_t& slot = directed_[directed_link];
  if (slot == kNoIndex) {
    const LinkId l(directed_link / 2);
    ResourceInfo info;
    info.kind = directed_link % 2 == 0 ? ResourceKind::kLinkUp : ResourceKind::kLinkDown;
    info.link = l;
    info.capacity = t_.capacity[l.value()];
    slot = add_resource(result_, link_stats_, info, on_resource_);
  }
  return slot;
}

std::uint32_t ResultRecorder::nvlink(std::uint32_t gpu, bool out) {
  std::uint32_t& slot = (out ? nvlink_out_ : nvlink_in_)[gpu];
  if (slot == kNoIndex) {
    ResourceInfo info;
    info.kind = out ? ResourceKind::kNvlinkOut : ResourceKind::kNvlinkIn;
    info.gpu = gpu;
    info.capacity = nvlink_direction_;
    slot = add_resource(result_, link_stats_, info, on_resource_);
  }
  return slot;
}

std::uint32_t ResultRecorder::barrier(BitsPerSecond capacity) {
  if (barrier_ == kNoIndex) {
    ResourceInfo info;
    info.kind = ResourceKind::kBarrier;
    info.capacity = capacity;
    barrier_ = add_resource(result_, link_stats_, info, on_resource_);
  }
  return barrier_;
}

std::uint32_t ResultRecorder::resource(const Hop& h) {
  switch (h.kind) {
    case HopKind::kLinkUp: return directed(directed_link(LinkId(h.index), true));
    case HopKind::kLinkDown: return directed(directed_link(LinkId(h.index), false));
    case HopKind::kNvlinkOut: return nvlink(h.index, true);
    case HopKind::kNvlinkIn: return nvlink(h.index, false);
  }
  return nvlink(h.index, true);
}

void ResultRecorder::add_record(std::uint32_t f) {
  if (w_.flows[f].join) return;
  record_of_flow_[f] = static_cast<std::uint32_t>(flow_of_record_.size());
  flow_of_record_.push_back(f);
}

void ResultRecorder::rerouted(std::uint32_t f) {
  if (record_of_flow_[f] != kNoIndex) {
    if (reroutes_.empty()) reroutes_.assign(w_.flows.size(), 0);
    if (reroutes_[f]++ == 0) ++result_.rerouted_flows;
  }
  ++result_.reroutes;
}

FlowRecord& ResultRecorder::open_record(std::uint32_t record) {
  if (result_.flows.capacity() < flow_of_record_.size()) result_.flows.reserve(flow_of_record_.size());
  const std::uint32_t f = flow_of_record_[record];
  const WorkloadFlow& wf = w_.flows[f];
  FlowRecord& r = result_.flows.emplace_back();
  static_cast<FlowIdentity&>(r) = wf;
  r.delay = wf.delay;
  r.pinned = !wf.routed && wf.src_port.valid();
  r.reroutes = reroutes_.empty() ? 0 : reroutes_[f];
  r.after_begin = static_cast<std::uint32_t>(result_.after_pool.size());
  for (const std::uint32_t a : w_.after_of(f)) {
    if (record_of_flow_[a] != kNoIndex) result_.after_pool.push_back(record_of_flow_[a]);
  }
  r.after_size = static_cast<std::uint32_t>(result_.after_pool.size() - r.after_begin);
  return r;
}

void ResultRecorder::write_outcome(FlowRecord& rec, const FlowOutcome& outcome, std::span<const std::uint32_t> path,
                                   const std::function<bool(std::uint32_t)>& is_down) const {
  if (outcome.started) rec.start = outcome.start;
  if (outcome.done) {
    rec.end = outcome.end;
    return;
  }
  rec.bits_left = outcome.bits_left;
  if (!outcome.started) {
    rec.unfinished = Unfinished::kWaiting;
    return;
  }
  rec.unfinished = Unfinished::kStalled;
  // Since the earliest time a resource of its path went down for good (its load changed then, as
  // its flows stalled); -1 when none did.
  TimePs since{-1};
  for (const std::uint32_t c : path) {
    if (!is_down(c)) continue;
    const TimePs at = link_stats_.last_change(c);
    if (since.value() < 0 || at < since) since = at;
  }
  rec.stalled = std::max(since, rec.start);
}

void ResultRecorder::count_flows(std::span<const std::uint32_t> path) {
  if (flows_of_.size() < result_.resources.size()) flows_of_.resize(result_.resources.size(), 0);
  for (const std::uint32_t c : path) ++flows_of_[c];
}

void ResultRecorder::finish_record(std::uint32_t record, const FlowOutcome& outcome, std::span<const std::uint32_t> path,
                                   std::span<const double> fractions, const std::function<bool(std::uint32_t)>& is_down) {
  assert(record == result_.flows.size());
  FlowRecord& rec = open_record(record);
  write_outcome(rec, outcome, path, is_down);
  rec.path_begin = static_cast<std::uint32_t>(result_.path_pool.size());
  rec.path_size = static_cast<std::uint32_t>(path.size());
  result_.path_pool.insert(result_.path_pool.end(), path.begin(), path.end());
  result_.fraction_pool.insert(result_.fraction_pool.end(), fractions.begin(),
                               fractions.begin() + static_cast<std::ptrdiff_t>(std::min(fractions.size(), path.size())));
  result_.fraction_pool.resize(result_.path_pool.size(), 1.0);
  count_flows(path);
}

void ResultRecorder::finish_record(std::uint32_t record, const FlowOutcome& outcome, std::uint32_t hops,
                                   const std::function<bool(std::uint32_t)>& is_down) {
  assert(record == result_.flows.size() && placed_ + hops <= result_.path_pool.size());
  assert(result_.fraction_pool.size() == result_.path_pool.size());  // the caller padded it
  FlowRecord& rec = open_record(record);
  const std::span<const std::uint32_t> path(result_.path_pool.data() + placed_, hops);
  write_outcome(rec, outcome, path, is_down);
  rec.path_begin = placed_;
  rec.path_size = hops;
  placed_ += hops;
  count_flows(path);
}

void ResultRecorder::close(TimePs last_event, const char* stalled_because) {
  for (std::uint32_t c = 0; c < flows_of_.size(); ++c) result_.stats[c].flows += flows_of_[c];
  flows_of_ = {};
  close_result(result_, last_event, stalled_because);
}

void ResultRecorder::add_statistics(std::uint32_t links, std::uint32_t bins) {
  link_stats_.add_saturated(result_, result_.makespan);
  link_stats_.add_series(result_, links, bins);
}

}  // namespace ct
