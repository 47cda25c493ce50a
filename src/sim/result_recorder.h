// The result bookkeeping every engine's driver does, once (sim/engine.h): the resources a run's
// flows cross, created on first use and numbered in that order (one direction of a backend cable,
// a GPU's NVLink egress or ingress, the flow engine's barrier); the flow records of the workload's
// flows (its joins left out) with the records they wait for; reroutes; each record's outcome and
// final path; then the result closed (result_closing.h) and the link statistics and time series
// added (link_statistics.h).
//
// An engine makes its own object for a new resource (a max-min constraint, a packet channel): the
// recorder tells it through `on_resource` with the resource's index and what it is. Resource i of
// the result is then the engine's i-th object, so that an engine and its result speak of the same
// numbers.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/units.h"
#include "fabric/fabric.h"
#include "sim/link_statistics.h"
#include "sim/result_closing.h"
#include "sim/simulation_result.h"
#include "workload/workload.h"

namespace ct {

// How a flow's run ended, as the engine knows it.
struct FlowOutcome {
  bool started = false;  // it started (else it still waits for a flow it depends on)
  bool done = false;     // it completed
  TimePs start{-1};
  TimePs end{-1};
  double bits_left = 0;  // not done: not yet delivered
};

class ResultRecorder {
 public:
  using OnResource = std::function<void(std::uint32_t index, const ResourceInfo& info)>;

  // `series`: keep the load changes for time series (LinkStatistics). Opens the result
  // (open_result): operations, phases, workers and notes.
  ResultRecorder(const Fabric& fabric, const Workload& workload, bool series, OnResource on_resource);

  // ---- resources, created on first use ----
  std::uint32_t directed(std::uint32_t directed_link);
  std::uint32_t nvlink(std::uint32_t gpu, bool out);
  // The flow engine's synchronisation point: carries nothing, at `capacity` (any positive figure).
  std::uint32_t barrier(BitsPerSecond capacity);
  // A workload hop's resource.
  std::uint32_t resource(const Hop& hop);
  // The catalog's NVLink rate per direction (0 when the catalog has none).
  [[nodiscard]] BitsPerSecond nvlink_rate() const { return nvlink_direction_; }

  // ---- flow records ----
  // The record of workload flow `f` (none for a join), after the records of the flows it waits
  // for: numbered now, written when it is finished (finish_record), so that a run holds no
  // records while its engine does. PRECONDITION: called in workload order.
  void add_record(std::uint32_t f);
  [[nodiscard]] std::uint32_t record_of(std::uint32_t f) const { return record_of_flow_[f]; }
  [[nodiscard]] std::uint32_t flow_of(std::uint32_t record) const { return flow_of_record_[record]; }
  [[nodiscard]] std::uint32_t record_count() const { return static_cast<std::uint32_t>(flow_of_record_.size()); }
  // Workload flow `f` took a new path (a join, with no record, counts as a move only).
  void rerouted(std::uint32_t f);

  // A record's outcome and final path (resources, with each hop's share of the flow; empty: all
  // 1): the record is written (result().flows[record] exists from here on). A flow that started
  // and did not complete is stalled since the earliest time a resource of its path (one `is_down`
  // says has rate 0) last changed load. PRECONDITION: called once per record, in record order.
  void finish_record(std::uint32_t record, const FlowOutcome& outcome, std::span<const std::uint32_t> path,
                     std::span<const double> fractions, const std::function<bool(std::uint32_t)>& is_down);
  // The same for an engine that has put every record's final path into result().path_pool itself,
  // one after the other in record order, and each hop's share into fraction_pool (so that it can
  // release its own state before the records are written): this record's path is the next `hops`
  // entries. PRECONDITION: as above; not mixed with the other form in one run.
  void finish_record(std::uint32_t record, const FlowOutcome& outcome, std::uint32_t hops,
                     const std::function<bool(std::uint32_t)>& is_down);

  // The flows that crossed each resource, then close_result (result_closing.h): the spans, the
  // makespan, the notes on unfinished flows. PRECONDITION: every record finished.
  void close(TimePs last_event, const char* stalled_because = kStalledByFaults);
  // The saturated times up to the makespan and the time series of the `links` busiest resources.
  // PRECONDITION: close() done, the engine's carried bits set.
  void add_statistics(std::uint32_t links, std::uint32_t bins);

  [[nodiscard]] LinkStatistics& link_stats() { return link_stats_; }
  [[nodiscard]] SimulationResult& result() { return result_; }

 private:
  const Topology& t_;
  const Workload& w_;
  OnResource on_resource_;
  LinkStatistics link_stats_;
  SimulationResult result_;
  BitsPerSecond nvlink_direction_{0};
  std::vector<std::uint32_t> directed_;  // directed link -> resource
  std::vector<std::uint32_t> nvlink_out_;
  std::vector<std::uint32_t> nvlink_in_;
  std::uint32_t barrier_ = kNoIndex;
  std::vector<std::uint32_t> record_of_flow_;  // workload flow -> record, kNoIndex for joins
  std::vector<std::uint32_t> flow_of_record_;
  std::vector<std::uint32_t> reroutes_;  // per workload flow, from the first reroute on (empty: none)
  std::vector<std::uint32_t> flows_of_;  // per resource: flows whose final path crossed it
  std::uint32_t placed_ = 0;  // path_pool entries the records finished so far cover
  // Appends record `record`'s identity, dependencies and reroutes (its outcome still to write).
  FlowRecord& open_record(std::uint32_t record);
  // The outcome part of finish_record; `path`: the record's final path.
  void write_outcome(FlowRecord& rec, const FlowOutcome& outcome, std::span<const std::uint32_t> path,
                     const std::function<bool(std::uint32_t)>& is_down) const;
  // Counts the record's path in flows_of_.
  void count_flows(std::span<const std::uint32_t> path);
};

}  // namespace ct
