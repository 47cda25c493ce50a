// LID assignment: every switch (its port 0) and every connected CA port gets a base LID; with
// LID Mask Control (LMC) a CA port answers to the 2^LMC consecutive LIDs base..base+2^LMC-1, base
// aligned to 2^LMC (IBA 1.4 vol. 1, 7.11.1 and 14.2.5.8). Switch port 0 keeps one LID here (OpenSM
// gives switches LMC 0 unless lmc_esp0 is set). Unicast LIDs are 0x0001..0xBFFF.
//
// As OpenSM's LID manager (osm_lid_mgr.c, osm_lid_mgr_process_subnet), LIDs a port already has
// are kept and the others are given in port GUID order, so the result never depends on the order
// of the input file:
//   1. LIDs the input states (IbFabric::stated_lid: ibsim presets them, OpenSM keeps them) are
//      taken as given, each port's block base..base+2^LMC-1 (a switch: its one LID). A stated LID
//      that is not aligned to 2^LMC, runs past 0xBFFF, or overlaps another port's block is an error
//      at the line that states it.
//   2. The other LID holders, ordered by port GUID (a switch's is its node GUID; ties, impossible
//      in a valid fabric, by node GUID then port), each take the first aligned block at or after
//      the end of the previous one that holds no stated LID. The skipped alignment gaps stay free.
// A fabric built from a spec (CAs numbered before switches, GUIDs rising in vertex order) gets
// its LIDs in fabric order; so does any fabric whose file lists ports in GUID order.
#pragma once

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "ib/ib_fabric.h"

namespace ct {

class LidAssignment {
 public:
  static constexpr std::uint32_t kMaxUnicastLid = 0xBFFF;

  int lmc = 0;
  // Owner of each LID (index = LID, size max_lid() + 1; LID 0 and gaps: invalid node).
  std::vector<IbNodeId> owner_node;
  std::vector<std::uint8_t> owner_port;  // 0 for a switch

  [[nodiscard]] std::uint32_t max_lid() const { return static_cast<std::uint32_t>(owner_node.size()) - 1; }
  [[nodiscard]] int lids_per_port() const { return 1 << lmc; }
  // Base LID of a switch (port 0) or CA port; 0 when it has none.
  [[nodiscard]] std::uint16_t base_lid(IbNodeId n, int port) const;
  // Sets the owner of LIDs base..base + count - 1 and the base of (n, port).
  void assign(IbNodeId n, int port, std::uint32_t base, std::uint32_t count, const IbFabric& fabric);
  // Size the tables for a fabric (call before assign()).
  void reset(const IbFabric& fabric, int lmc_value);

 private:
  std::vector<std::uint16_t> switch_base_;  // per node (0 for CAs)
  std::vector<std::uint32_t> ca_port_begin_;  // per node: index of its port 1 in ca_base_
  std::vector<std::uint16_t> ca_base_;
};

// PRECONDITION: 0 <= lmc <= 7. Errors (located at the node's line, fabric_diagnostic): a stated
// LID that cannot be honoured (above), or more LIDs needed than the 0xBFFF unicast LIDs.
Result<LidAssignment> assign_lids(const IbFabric& fabric, int lmc);

}  // namespace ct
