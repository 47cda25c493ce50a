// A workload and its faults on a built fabric: what `clustertwin simulate` runs. Every name is
// resolved against the Topology (GPUs, ports, links), so a Scenario is ready to simulate.
//
// Endpoints. A GPU is host h, local index g: global id h x gpus_per_host + g ("host3/gpu2" or
// "gpu26"). GPU g of a host uses backend NIC (rail) g x rails / gpus_per_host (HGX: one NIC per
// GPU); its traffic to another host leaves through that NIC's port on each plane. A backend port
// ("host3/nic2/p1", routing/port_address.h) names one plane's port directly.
//
// Workers. For the share of time lost to the slowest path (analysis/straggler.h), a worker is a GPU
// of a collective, or the source of a transfer; transfers of one `group` form one phase, whose
// span runs from the first start to the last completion of the group.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/ids.h"
#include "core/units.h"
#include "traffic/collective.h"

namespace ct {

// How network flows are spread over equal-cost paths (routing/load_balancing.h).
enum class PathModel : std::uint8_t {
  kEcmp,      // per-flow hash: each flow (one QP of one channel) takes the path its hashes pick
  kSpray,     // per-packet spraying: one flow spread evenly over every member at every group
  kAdaptive,  // per-flow adaptive: each flow of a step takes the least-loaded member at each group
};
inline constexpr PathModel kAllPathModels[] = {PathModel::kEcmp, PathModel::kSpray, PathModel::kAdaptive};

// How the GPUs of a selection (hosts x local indices) form a collective's groups: one group of
// everything, one per local index (a rail), or one per host. A scenario file names them twice:
// as a whole-fabric selection (`gpus: all | per-rail | per-host`) and as a mapping's `per:`
// (none | rail | host).
enum class GpuGrouping : std::uint8_t { kNone, kRail, kHost };
inline constexpr GpuGrouping kAllGpuGroupings[] = {GpuGrouping::kNone, GpuGrouping::kRail, GpuGrouping::kHost};
// The rank order inside each group: hosts then local indices as listed, or a seeded shuffle.
enum class GpuOrder : std::uint8_t { kInOrder, kRandom };
inline constexpr GpuOrder kAllGpuOrders[] = {GpuOrder::kInOrder, GpuOrder::kRandom};

struct Endpoint {
  bool is_port = false;
  std::uint32_t gpu = 0;  // when !is_port
  VertexId port;          // when is_port
  std::string name;       // as written
};

struct TransferSpec {
  std::string name;
  Endpoint src;
  Endpoint dst;
  Bytes bytes{0};
  TimePs start{0};
  std::uint32_t channels = 0;  // 0: one per plane (GPU endpoints), 1 for ports
  std::uint32_t qps = 0;       // 0: routing.qps_per_connection
  std::string group = "transfers";
  double weight = 1.0;  // max-min weight of each of its flows (> 0)
};

struct MiceSpec {
  std::string name;
  std::uint32_t count = 0;
  Bytes bytes{0};
  TimePs start{0};
  double arrivals_per_s = 0;  // Poisson arrivals of the whole set; 0 = all at `start`
  std::vector<std::uint32_t> hosts;  // endpoints drawn among these hosts' backend ports (sorted)
  double weight = 1.0;  // max-min weight of each flow (> 0)
};

struct CollectiveSpec {
  std::string name;
  CollectiveKind kind = CollectiveKind::kAllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;
  // pipelined (NCCL's chunked streaming) or stepwise (each step after the previous); a scenario
  // file that gives `steps` and no `model` gets stepwise (traffic/collective.h "Models").
  CollectiveModel model = CollectiveModel::kPipelined;
  SourceLocation model_at;  // where the file wrote `model:` (line 0: not written; --model may set it)
  std::string gpus_text;                           // the selector as written
  std::vector<std::vector<std::uint32_t>> groups;  // GPUs of each concurrent instance, in rank order
  Bytes bytes{0};
  std::uint32_t channels = 0;  // 0: one per NIC port of the group (planes x rails)
  std::uint32_t qps = 0;       // 0: routing.qps_per_connection
  std::uint32_t iterations = 1;
  std::uint32_t steps = 0;  // stepwise: simulate only the first `steps` steps (0: all); the result is partial
  TimePs compute{0};  // compute phase before each iteration's collective
  TimePs start{0};
  double weight = 1.0;  // max-min weight of each of its flows (> 0): twice the weight, twice the share
};

enum class FaultKind : std::uint8_t { kDown, kDegrade, kRepair };
inline constexpr FaultKind kAllFaultKinds[] = {FaultKind::kDown, FaultKind::kDegrade, FaultKind::kRepair};

struct FaultSpec {
  FaultKind kind = FaultKind::kDown;
  std::string what;            // the selector as written
  std::vector<LinkId> links;   // sorted, unique
  TimePs at{0};
  double fraction = 0;         // capacity after the event: down 0, repair 1, degrade as given
  TimePs convergence{0};       // down/repair: routing converges (flows rehash) this much later
};

struct Scenario {
  std::string file;
  SourceLocation at;  // the `scenario:` key in `file` (line 0: built from flags)
  std::string name;
  PathModel paths = PathModel::kEcmp;
  std::uint64_t seed = 1;
  SourceLocation paths_at;  // where the file wrote `paths:` / `seed:` (line 0: not written)
  SourceLocation seed_at;
  std::vector<TransferSpec> transfers;
  std::vector<MiceSpec> mice;
  std::vector<CollectiveSpec> collectives;
  std::vector<FaultSpec> faults;  // in time order (stable)

  [[nodiscard]] bool empty() const { return transfers.empty() && mice.empty() && collectives.empty(); }
};

// The names of each enumeration, one table each (traffic/scenario.cpp); parse_* is the inverse.
std::string_view path_model_name(PathModel p);  // "ecmp", "spray", "adaptive"
std::string_view fault_kind_name(FaultKind k);  // "down", "degrade", "repair"
std::string_view gpu_selection_name(GpuGrouping g);  // the whole fabric: "all", "per-rail", "per-host"
std::string_view gpu_grouping_name(GpuGrouping g);  // a mapping's `per:`: "none", "rail", "host"
std::string_view gpu_order_name(GpuOrder o);  // "in-order", "random"
std::optional<PathModel> parse_path_model(std::string_view name);
std::optional<FaultKind> parse_fault_kind(std::string_view name);
std::optional<GpuGrouping> parse_gpu_selection_name(std::string_view name);
std::optional<GpuGrouping> parse_gpu_grouping(std::string_view name);
std::optional<GpuOrder> parse_gpu_order(std::string_view name);

}  // namespace ct
