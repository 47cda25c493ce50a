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

struct CatalogEntry {
  std::string id;    // what a spec names, e.g. "sn5600"
  std::string name;  // e.g. "NVIDIA Spectrum-X SN5600"
  std::string vendor;
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
  std::optional<double> nvlink_bytes_per_s;  // per GPU, one direction... as published (see docs)
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

class Catalog {
 public:
  std::vector<NodeModel> nodes;
  std::vector<NicModel> nics;
  std::vector<SwitchModel> switches;
  std::vector<OpticModel> optics;
  std::vector<ChipClass> zoo;

  [[nodiscard]] const NodeModel* find_node(const std::string& id) const;
  [[nodiscard]] const NicModel* find_nic(const std::string& id) const;
  [[nodiscard]] const SwitchModel* find_switch(const std::string& id) const;
  [[nodiscard]] const OpticModel* find_optic(const std::string& id) const;
};

std::string to_string(Protocol p);
std::string to_string(NicKind k);
std::string to_string(MediaKind k);
std::string to_string(Medium m);

}  // namespace ct
