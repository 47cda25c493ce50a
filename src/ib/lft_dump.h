// Linear forwarding table dumps, as infiniband-diags' dump_fts prints them (and OpenSM writes to
// opensm-lfts.dump with routing logging on):
//
//   dump_fts:
//     Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (Switch1):
//       Lid  Out   Destination
//            Port     Info
//     0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')
//     6 valid lids dumped
//   OpenSM:
//     Unicast lids [0-6] of switch Lid 1 guid 0x0000000000200000 ('Switch1'):
//     0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'Hca1'
//     6 lids dumped
//
// The writer produces the dump_fts form, one block per switch in fabric order, a line per routed
// LID ("Switch portguid ..." for a switch LID, "Channel Adapter portguid ..." for a CA port).
// The parser reads both forms (and ibroute's, which is dump_fts's for one switch): a block starts
// at "Unicast lids" and names the switch GUID; an entry is "0xLID PORT" followed by the
// destination's "portguid 0x..."; the block ends with "N [valid ]lids dumped", whose N must match
// the entries read, so a truncated file is an error, not a silently smaller table. Port 255
// (unrouted) is skipped; "Multicast mlids" blocks (dump_fts -M) are skipped. Errors name the line.
//
// routing_from_lft_dump() rebuilds an IbRouting on our fabric from another subnet manager's dump:
// switches are matched by node GUID, destination LIDs by the port GUID each entry names, so the
// checks of ib_checks.h can run on OpenSM's tables as they run on ours. Errors, with the entry's
// line: a switch or destination GUID not in the fabric, a port beyond the switch's ports, one LID
// named for two different ports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "ib/ib_fabric.h"
#include "ib/ib_routing.h"

namespace ct {

struct LftDumpEntry {
  std::uint32_t lid = 0;
  std::uint8_t port = 0;
  std::uint64_t dest_port_guid = 0;  // 0 when the line names none
  int line = 0;
};

struct LftDumpSwitch {
  std::uint64_t guid = 0;
  std::vector<LftDumpEntry> entries;
  int line = 0;  // of the block header
};

std::string write_lft_dump(const IbFabric& fabric, const IbRouting& routing);
Result<std::vector<LftDumpSwitch>> parse_lft_dump(std::string_view text, const std::string& file);
Result<IbRouting> routing_from_lft_dump(const IbFabric& fabric, const std::vector<LftDumpSwitch>& dump,
                                        const std::string& file);

}  // namespace ct
