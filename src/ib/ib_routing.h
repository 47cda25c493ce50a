// What a subnet manager programs into a fabric: a LID assignment and, per switch, a linear
// forwarding table (LFT) mapping each destination LID to an output port (0 = the switch itself,
// kNoPath = unrouted). Routing is destination-based: a packet's path is fixed by its DLID alone.
// The engines fill it (routing_engines.h); route_fabric() in subnet_manager.h runs them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ib/ib_fabric.h"
#include "ib/lid_assignment.h"

namespace ct {

enum class IbEngine : std::uint8_t { kMinHop, kUpDown, kFatTree };
std::string to_string(IbEngine engine);  // "minhop", "updn", "ftree" (OpenSM's names)
// The engines' names as the CLI offers them ("ftree", "updn", "minhop"), and the engine of a name.
std::vector<std::string> ib_engine_names();
std::optional<IbEngine> ib_engine_named(std::string_view name);

struct IbRoutingOptions {
  IbEngine engine = IbEngine::kMinHop;
  int lmc = 0;  // 0..7
  // Root switches (updn, ftree). Empty: detected (ib_ranking.h).
  std::vector<IbNodeId> roots;
  // Compute-node CAs (ftree). Empty: every CA is a compute node, as in OpenSM without -u.
  std::vector<IbNodeId> compute_nodes;
  // Threads for the per-switch loops (results do not depend on it). 0: hardware concurrency.
  int threads = 0;
};

class IbRouting {
 public:
  static constexpr std::uint8_t kNoPath = 0xFF;

  IbEngine engine = IbEngine::kMinHop;
  LidAssignment lids;
  std::vector<IbNodeId> switches;  // switch index -> node (fabric order)

  // PRECONDITION: lids are final. Sizes the LFTs to (switches x (max_lid + 1)), all kNoPath.
  void reset_tables(const IbFabric& fabric);
  [[nodiscard]] std::uint32_t stride() const { return stride_; }
  [[nodiscard]] std::uint8_t port(std::uint32_t sw, std::uint32_t lid) const {
    return lft_[static_cast<std::size_t>(sw) * stride_ + lid];
  }
  void set_port(std::uint32_t sw, std::uint32_t lid, std::uint8_t out) {
    lft_[static_cast<std::size_t>(sw) * stride_ + lid] = out;
  }
  // The LFT row of one switch (index = LID).
  [[nodiscard]] const std::uint8_t* row(std::uint32_t sw) const { return lft_.data() + static_cast<std::size_t>(sw) * stride_; }
  std::uint8_t* row(std::uint32_t sw) { return lft_.data() + static_cast<std::size_t>(sw) * stride_; }
  // Switch index of a node (SwitchGraph numbering), SwitchGraph::kNone for a CA.
  [[nodiscard]] std::uint32_t switch_index(IbNodeId n) const { return switch_index_[n.value()]; }

 private:
  std::uint32_t stride_ = 0;
  std::vector<std::uint8_t> lft_;
  std::vector<std::uint32_t> switch_index_;
};

}  // namespace ct
