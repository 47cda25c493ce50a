// The packet engine's flags of `simulate --engine packet` (sim/engine.h PacketOptions): --mtu,
// --vls, --switch-latency, --switch-buffer, --forwarding; on RoCE v2, --dcqcn, --ecn-kmin,
// --ecn-kmax, --ecn-pmax and --dcqcn-param NAME=VALUE (sim/packet/dcqcn.h); --csv-queues (the
// kHottestQueues output queues with the largest time-weighted mean, over time:
// sim/queue_statistics.h) and --compare-engines (both engines side by side:
// analysis/engine_comparison.h, on two threads unless --threads 1); --sharp-latency and --sharp-trees (SHARP in the switches:
// sim/packet/sharp_aggregation.h). A switch figure not given comes from the catalog's switch model;
// where the catalog has none, the engine names the flag to give.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "sim/engine.h"

namespace ct::cli {

struct PacketFlags {
  std::string mtu;
  std::uint64_t vls = 1;
  std::string switch_latency;
  std::string switch_buffer;
  std::string forwarding;
  std::string dcqcn;
  std::string ecn_kmin;
  std::string ecn_kmax;
  double ecn_pmax = -1;
  std::vector<std::string> dcqcn_params;
  std::string csv_queues;        // the hottest queues over time (sim/queue_statistics.h)
  bool compare_engines = false;  // flow and packet side by side (sim/engine_comparison.h)
  unsigned threads = 0;  // --threads: --compare-engines runs its two engines at once (sim/engine.h)
  std::string sharp_latency;
  std::uint64_t sharp_trees = 0;  // 0: the catalog's
};

void add_packet_flags(CLI::App& app, PacketFlags& flags);

// The options the flags give; errors (exit 1) name the flag: a size or duration that does not
// parse, an MTU outside [64 B, 1 MiB], ECN thresholds out of order, an unknown DCQCN parameter.
Result<PacketOptions> packet_options(const PacketFlags& flags);

// What the flags may not be given with (a usage error, exit 2; empty when none): --csv-queues
// without --engine packet; --compare-engines with --engine (it runs both), --csv-queues or
// `single_run_outputs` (--csv-links, --csv-flows, --csv-series, --html: one engine's files).
std::string packet_flags_usage(const PacketFlags& flags, EngineKind engine, bool engine_given, bool single_run_outputs);

}  // namespace ct::cli
