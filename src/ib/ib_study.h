// The InfiniBand subnet manager model as library calls: what `clustertwin ib route` and
// `ib trace` compute, as values for the reports (report/ib_report.h).
//
// study_ib_route: LIDs and LFTs from one of the engines (subnet_manager.h), or another subnet
// manager's LFTs read back onto the fabric (lft_dump.h), then the checks of ib_checks.h:
// reachability of every (source port, destination LID) pair, credit loops, the uplink balance by
// switch rank (ib_ranking.h: the roots given, else detected), and the max link load of shift and
// random permutations. With failures, the named cables are removed (fabric_edits.h) and the same
// again on the degraded fabric: rerouted by the engine, or the same LFTs before any rerouting.
//
// study_ib_trace: the hop-by-hop path of one (source CA port, destination LID), as ibtracert
// prints it, before and after the failures.
//
// Locations: a diagnostic of the fabric or the engines names `file` (the spec or the ibnetdiscover
// file the fabric was read from); names typed by the user (--fail, the trace's SRC and DST) are
// reported at `where` (the command line) with the option as the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/threads.h"
#include "ib/ib_checks.h"
#include "ib/ib_fabric.h"
#include "ib/ib_routing.h"
#include "ib/lft_dump.h"

namespace ct {

// The fabric a study runs on, with where it came from.
struct IbSubnet {
  IbFabric fabric;
  std::string origin;  // "plane 0 of lab.yaml", "fabric.net"
  std::string file;    // the file it was read from, for diagnostics
};

struct IbRouteStudyOptions {
  IbRoutingOptions routing;
  // Check these tables (another subnet manager's, parsed by the caller) instead of routing.
  std::optional<std::vector<LftDumpSwitch>> lfts;
  std::string lfts_file;
  std::vector<std::string> failures;  // cables to remove: NODE:PORT, NODE,NODE or NODE
  std::size_t shifts = 64;            // shift permutations
  std::size_t random = 16;            // random permutations
  std::uint64_t seed = 1;             // of the random permutations
  bool switch_lids = false;           // also check routes to switch LIDs
  SourceLocation where{"command line", 0, 0};
  // Called from the caller's thread after each step (done, total): per fabric (the healthy one,
  // then the degraded one with failures) the routing and the five checks, 6 steps each.
  ProgressCallback progress;
};

// One routed fabric and what the checks found.
struct IbRoutedFabric {
  IbFabric fabric;
  IbRouting routing;
  std::size_t roots = 0;  // root switches given or detected
  ReachabilityReport reach;
  CreditLoopReport loops;
  std::vector<RankBalance> balance;  // by rank
  PermutationReport shift;
  PermutationReport random;
};

struct IbRouteStudy {
  std::string origin;
  std::string source;  // "Engine ftree", "LFTs of opensm-lfts.dump"
  bool roots_given = false;
  std::uint64_t seed = 1;
  IbRoutedFabric healthy;
  // With failures: cables removed and left, then the degraded fabric's routing, or why it failed
  // (e.g. ftree refuses the degraded fabric); the healthy part stands either way.
  bool failed_cables = false;
  bool same_lfts = false;  // the degraded fabric keeps the LFTs read (no rerouting)
  std::size_t removed = 0;
  std::size_t cables_left = 0;
  std::optional<IbRoutedFabric> degraded;
  Diagnostics degraded_errors;
};

// Errors: the options (node lists, LMC), the routing or LFTs of the healthy fabric, the failures.
Result<IbRouteStudy> study_ib_route(IbSubnet subnet, const IbRouteStudyOptions& options);

struct IbTraceOptions {
  IbRoutingOptions routing;
  std::string source;       // CA: NODE or NODE:PORT
  std::string destination;  // a node, or a LID
  std::vector<std::string> failures;
  SourceLocation where{"command line", 0, 0};
};

struct IbTraced {
  IbFabric fabric;
  IbRouting routing;
  Trace trace;
  std::uint32_t dlid = 0;
};

struct IbTraceStudy {
  IbTraced healthy;
  bool failed_cables = false;
  std::size_t removed = 0;
  std::optional<IbTraced> degraded;
  Diagnostics degraded_errors;
};

Result<IbTraceStudy> study_ib_trace(IbSubnet subnet, const IbTraceOptions& options);

// Removes the cables named in `failures` (fabric_edits.h), reporting a bad name at `where`.
Result<std::size_t> remove_cables(IbFabric& fabric, const std::vector<std::string>& failures,
                                  const SourceLocation& where);

}  // namespace ct
