// The hardware catalog: nodes, NICs (NICs, SuperNICs, DPUs), switches, optics and cables, and the
// data-center chip zoo. Every entry carries its public sources; figures the sources do not give
// stay empty (std::nullopt), never guessed. The catalog is plain data: it is parsed from YAML text
// (catalog_parser.h) and looked up by id; it does no I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/units.h"

namespace ct {

enum class Protocol { kEthernet, kInfiniband };

// How a switch forwards a packet: from its head (cut-through) or once its tail is in.
enum class Forwarding { kCutThrough, kStoreAndForward };

struct CatalogEntry {
  std::string id;    // what a spec names, e.g. "sn5600"
  std::string name;  // e.g. "NVIDIA Spectrum-X SN5600"
  std::string vendor;
  std::string part_number;           // the vendor's ordering number, empty when not given
  std::vector<std::string> sources;  // public URLs or documents for the figures
  SourceLocation where;              // where the entry was defined
};

// A way to split one physical port (cage) into several logical ports.
struct Breakout {
  int ways = 1;  // logical ports per cage
  BitsPerSecond speed;
};

struct SwitchModel : CatalogEntry {
  std::vector<Protocol> protocols;
  std::string asic;
  int ports = 0;  // physical cages
  BitsPerSecond port_speed;
  std::vector<Breakout> breakouts;  // beyond 1 x port_speed
  BitsPerSecond capacity;           // switching capacity, one direction
  std::optional<double> power_w;    // maximum (or typical where only that is published)
  std::optional<double> price_usd;
  std::optional<int> rack_units;
  // What the packet engine needs (docs/models/packet-engine.md); nullopt where no source gives it,
  // and then the run must be given the figure.
  std::optional<double> latency_ns;            // port to port, unloaded
  std::optional<double> buffer_bytes_per_vl;   // input buffer per port and virtual lane (credits x 64 B)
  std::optional<Forwarding> forwarding;
  std::optional<double> sharp_latency_ns;  // SHARP: reduction latency per aggregating switch
  std::optional<int> sharp_trees;          // SHARP: streaming-aggregation trees active at once per switch

  // Logical ports per switch at `speed` (ports x ways of the breakout at that speed), or 0 when the
  // switch cannot run ports at that speed.
  [[nodiscard]] int ports_at(BitsPerSecond speed) const;
};

enum class NicKind { kNic, kSuperNic, kDpu };

struct NicModel : CatalogEntry {
  NicKind kind = NicKind::kNic;
  std::vector<Protocol> protocols;
  int ports = 1;  // physical cages
  BitsPerSecond port_speed;
  std::vector<int> splits = {1};  // how many planes (logical ports) one cage can be split into
  std::optional<double> power_w;
  std::optional<double> price_usd;

  [[nodiscard]] bool can_split(int ways) const;
};

struct NodeModel : CatalogEntry {
  std::string gpu;  // e.g. "B300"
  int gpus = 0;
  // NVLink bandwidth per GPU in bytes/s as NVIDIA publishes it: both directions added together
  // (H100: 900 GB/s = 450 GB/s each way). See docs/models/catalog.md.
  std::optional<double> nvlink_bytes_per_s;
  std::string backend_nic;                    // NIC model id
  int backend_nics = 0;                       // one per GPU on HGX boards
  std::string frontend_nic;                   // NIC/DPU model id, may be empty
  int frontend_nics = 0;
  std::optional<double> power_w;
  std::optional<double> price_usd;
};

enum class MediaKind { kTransceiver, kDac, kAcc, kAoc };
enum class Medium { kSingleMode, kMultiMode, kCopper };

struct OpticModel : CatalogEntry {
  MediaKind kind = MediaKind::kTransceiver;
  Medium medium = Medium::kSingleMode;
  std::string form_factor;  // "OSFP", "QSFP112", ...
  BitsPerSecond speed;      // aggregate of the module or cable end
  int links = 1;            // logical links it carries (2 for a twin-port 2x400G module)
  double reach_m = 0;
  std::optional<double> power_w;  // per module (transceivers) or per cable end (ACC); DAC ~ 0
  std::optional<double> price_usd;
};

// One class of the data-center chip zoo, with the bottleneck that earned it its own silicon.
struct ChipClass {
  std::string name;        // "GPU", "DPU", ...
  std::string bottleneck;  // why general-purpose silicon was not enough
  std::string example;     // an example part
  std::vector<std::string> sources;
};

// Failure data of one kind of backend-network element (catalog/reliability.yaml, `failure_rates:`).
// Rates are per element: a NIC (all its ports), a link (cable or fibre with the modules at both
// ends), a switch of one tier. `per_hour` is the failure rate lambda, derived by the parser from the
// published figure as the entry states it (see docs/models/reliability.md):
//   observed {failures F, elements N, days D}  lambda = F / (N x 24 D)
//   fraction {value f, days D}                 lambda = -ln(1 - f) / (24 D)   (share failing per D days)
//   mtbf_hours M                               lambda = 1 / M
// Either figure is nullopt when no public source gives it.
enum class FailureElement { kNic, kLink, kLeaf, kSpine, kCore };
inline constexpr int kFailureElementCount = 5;

struct FailureRate {
  std::string id;
  FailureElement element = FailureElement::kLink;
  std::optional<MediaKind> media;     // links: the media the figure is for; nullopt = any media
  std::optional<double> per_hour;     // failures per element-hour
  std::optional<double> mttr_hours;   // mean time to repair
  std::string basis;                  // the published figure and how the rate follows from it
  std::vector<std::string> sources;
  SourceLocation where;
};

class Catalog {
 public:
  std::vector<NodeModel> nodes;
  std::vector<NicModel> nics;
  std::vector<SwitchModel> switches;
  std::vector<OpticModel> optics;
  std::vector<ChipClass> zoo;
  std::vector<FailureRate> failure_rates;

  [[nodiscard]] const NodeModel* find_node(const std::string& id) const;
  [[nodiscard]] const NicModel* find_nic(const std::string& id) const;
  [[nodiscard]] const SwitchModel* find_switch(const std::string& id) const;
  [[nodiscard]] const OpticModel* find_optic(const std::string& id) const;
  // The failure data for an element kind; for links, the entry for `media` if there is one, else
  // the entry without media. nullptr when the catalog has none.
  [[nodiscard]] const FailureRate* find_failure_rate(FailureElement element,
                                                     std::optional<MediaKind> media = std::nullopt) const;
};

std::string to_string(Protocol p);
std::string to_string(Forwarding f);
std::string to_string(NicKind k);
std::string to_string(MediaKind k);
std::string to_string(Medium m);
std::string to_string(FailureElement e);

}  // namespace ct
