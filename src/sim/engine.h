// The engine contract: what every simulation engine is, so that a second one (a packet engine) can
// run the same workload beside the flow engine.
//
//   run(fabric, scenario, workload, options) -> Result<SimulationResult>
//
// An engine runs a compiled workload (workload/workload.h: flows, their fixed hops, joins and
// dependencies, route batches) on a built fabric, under the scenario's path model, seed and faults,
// and answers the one result type (sim/simulation_result.h). It takes from sim/ what every engine
// needs: routing a batch of flows (flow_router.h), the fault timeline (fault_timeline.h), the
// result's bookkeeping (result_recorder.h: resources, flow records, reroutes, closing), link
// statistics and time series (link_statistics.h). simulate() (sim/simulation.h) checks the
// scenario, compiles the workload and calls the engine `options.engine` names.
//
// Engines: kFlow, the fluid max-min engine (sim/flow/flow_simulation.h, flow_engine::run);
// kPacket, the packet-level lossless engine (sim/packet/packet_simulation.h, packet_engine::run).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/result.h"
#include "core/units.h"
#include "fabric/fabric.h"
#include "sim/packet/dcqcn.h"
#include "sim/packet/red_marking.h"
#include "sim/simulation_result.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct {

enum class EngineKind : std::uint8_t { kFlow, kPacket };

// "flow", "packet".
std::string_view engine_name(EngineKind engine);
std::optional<EngineKind> parse_engine(std::string_view name);
// Whether this build has the engine (both are built).
bool engine_built(EngineKind engine);

// Told about progress every few thousand instants (the CLI prints it on long runs).
class SimulationProgress {
 public:
  virtual ~SimulationProgress() = default;
  virtual void update(std::uint64_t flows_done, std::uint64_t flows_total, TimePs now) = 0;
};

// The packet engine's parameters (docs/models/packet-engine.md). A switch figure left empty comes
// from the catalog's switch model; where the catalog has none either, the packet engine refuses to
// run and names the figure.
struct PacketOptions {
  std::int64_t mtu = 4096;  // payload bytes per packet: InfiniBand's largest MTU (IBA vol. 1, 7.7.8)
  std::uint8_t vls = 1;     // data virtual lanes; a flow's VL is its channel mod vls
  std::optional<TimePs> switch_latency;
  std::optional<std::int64_t> buffer_bytes;  // per port and VL
  std::optional<bool> cut_through;
  // RoCE v2 congestion control: ECN marking at the switches' egress queues and DCQCN at the senders
  // (on by default on Ethernet fabrics, never on InfiniBand's credits); the thresholds and
  // parameters default to the DCQCN paper's (docs/models/packet-engine.md).
  std::optional<bool> dcqcn;
  RedEcnSpec ecn;
  DcqcnParams dcqcn_params;
  std::optional<TimePs> sharp_latency;       // SHARP: reduction latency per aggregating switch
  std::optional<std::uint32_t> sharp_trees;  // SHARP: concurrent aggregation trees per switch
};

// The flow engine's own input beside the workload: the max-min weights compile_workload (and
// append_flow_table) gave, one per workload flow; empty, every flow weighs 1. simulate() fills it;
// the flow engine shares rates by them, no other engine does (the workload carries nothing one
// engine alone needs); run_engine copies them into every engine's flow records for the reports.
struct FlowOptions {
  std::span<const double> max_min_weights;
};

struct SimulationOptions {
  EngineKind engine = EngineKind::kFlow;
  std::uint64_t max_flows = 40'000'000;  // refuse scenarios above this many flows
  std::uint32_t series_links = 16;       // time series for this many of the busiest resources
  std::uint32_t series_bins = 50;
  // A packet run: the occupancy over time of this many of the hottest output queues
  // (sim/queue_statistics.h); 0: none kept (no cost).
  std::uint32_t queue_series = 0;
  SimulationProgress* progress = nullptr;  // called from the caller's thread only
  // simulate_engines: 1 runs the flow engine, then the packet engine; 0 (all cores) or more, both at
  // once on two threads. Each engine runs on one thread; no result depends on it.
  unsigned threads = 1;
  PacketOptions packet;
  FlowOptions flow;
};

// The signature every engine's run() has. PRECONDITION of each: workload = compile_workload(fabric,
// scenario) (with a flow table appended, if any).
using EngineRun = Result<SimulationResult> (*)(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
                                               const SimulationOptions& options);

}  // namespace ct
