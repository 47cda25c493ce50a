// What `clustertwin ib route|trace|export` asks, read from the files it names and run as library
// calls: the subnet (one backend plane of a spec's built fabric, ib/topology_to_ib.h, or an
// ibnetdiscover file, ib/ibnetdiscover.h), the routing options (the engine, LMC, and the node
// lists of --roots and --cn, ib/fabric_edits.h), LFTs to check instead of routing (ib/lft_dump.h),
// and the node names the user typed, translated as cluster names on a spec's fabric
// (ib/cluster_names.h). Each call returns the study its report prints (ib/ib_study.h), or every
// diagnostic of the first step that failed, in the order the steps are named here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/fabric.h"
#include "ib/ib_fabric.h"
#include "ib/ib_routing.h"
#include "ib/ib_study.h"
#include "ib/lid_assignment.h"

namespace ct {

struct IbRequest {
  // The fabric: exactly one of the two.
  std::string spec_path;           // with the built fabric passed beside it
  std::string ibnetdiscover_path;  // an ibnetdiscover file (or an ibsim net file)
  int plane = 0;                   // the spec's backend plane
  // Routing.
  IbEngine engine = IbEngine::kFatTree;
  int lmc = 0;
  unsigned threads = 0;
  std::string roots_path;  // empty: none
  std::string cn_path;     // empty: none
  std::vector<std::string> failures;  // cables to remove (NODE:PORT, NODE,NODE, NODE)
  // route
  std::string lft_in;  // check these LFTs instead of routing; empty: route
  std::uint64_t shifts = 64;
  std::uint64_t random = 16;
  std::uint64_t seed = 1;
  bool switch_lids = false;
  // trace
  std::string source;
  std::string destination;
  SourceLocation where{"command line", 0, 0};  // where typed names are reported
};

// `fabric`: the spec's built fabric, or null with an ibnetdiscover file.
Result<IbRouteStudy> run_ib_route(const IbRequest& request, const Fabric* fabric, ProgressCallback progress);
Result<IbTraceStudy> run_ib_trace(const IbRequest& request, const Fabric* fabric);

// The fabric `ib export` writes: the subnet less the failed cables, and with `with_lids` the LIDs
// our assignment gives (errors of the assignment name the subnet's file).
struct IbExport {
  IbFabric fabric;
  std::optional<LidAssignment> lids;
};
Result<IbExport> run_ib_export(const IbRequest& request, const Fabric* fabric, bool with_lids);

// `simulate --ibnetdiscover FILE --ib-routing ENGINE`: the subnet read from the file, routed by the
// engine as `ib route` routes it (LIDs, then LFTs), as a Fabric whose paths are those LFTs
// (ib/simulation_fabric.h). Errors: the file's, the engine's (ftree refuses a fabric that is no
// fat tree), and the conversion's (a cable without a rate).
Result<Fabric> load_ib_simulation_fabric(const std::string& path, IbEngine engine, const Catalog& catalog);

}  // namespace ct
