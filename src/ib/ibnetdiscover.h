// The ibnetdiscover topology format (infiniband-diags), which is also ibsim's "net" file format.
//
// A file is a sequence of node blocks separated by blank lines:
//   switchguid=0x0002c90200000001(0002c90200000001)   GUID of the next switch (caguid= for a CA)
//   Switch  36 "S-0002c90200000001"   # "leaf 1" enhanced port 0 lid 1 lmc 0
//   [1]     "H-0002c90300000010"[1](2c90300000011)   # "host 1" lid 3 4xNDR
//   [2]     "S-0002c90200000005"[7]                   # "spine 1" lid 2 4xNDR
//
//   caguid=0x0002c90300000010
//   Ca      1 "H-0002c90300000010"   # "host 1"
//   [1](2c90300000011)  "S-0002c90200000001"[1]   # lid 3 lmc 0 "leaf 1" lid 1 4xNDR
// Header: type (Switch, Ca or Hca), physical port count, quoted node id, then after '#' the quoted
// node description. Port line: [local port], optional (port GUID), quoted remote node id, [remote
// port] (1 when absent, as ibsim reads it), optional (remote port GUID), then a comment. Lines
// starting with '#' are comments; other key=value lines (vendid, devid, sysimgguid) are ignored.
//
// GUIDs as ibsim reads them: "switchguid=X" ("caguid=X") sets the GUID of the next switch (CA);
// without one, switches are numbered from 0x200000 upward (one GUID each) and CAs from 0x100000
// upward (ports + 1 GUIDs each), so a hand-written ibsim net file gets the GUIDs ibsim gives it.
//
// The parser is a pure function of the text. Every problem is a Diagnostic naming the line and
// the field (node.ports, node.id, node.guid, port.number, port.remote_node, port.remote_port, ...):
// malformed headers and port lines, port numbers out of range, a port described twice, duplicate
// node ids or GUIDs, a remote node never defined (a truncated file), a cable described from one
// end only or inconsistently, router (Rt) nodes, and a file with no node at all.
//
// The writer emits switches first, then CAs, each in fabric order, with the GUID lines above, the
// node description after '#', port GUIDs of CA ports in parentheses, and "lid N" comments only
// when given a LID assignment (ibsim then presets those LIDs, and OpenSM keeps them). Lines stay
// under ibsim's 256 characters. An empty description is written as the node id (as ibsim reads
// it). parse(write(f)) reproduces f's nodes, GUIDs, ports and cables, and its descriptions where
// they are not empty; the real ibnetdiscover, run on ibsim fed our file, gives the same fabric
// back (tests/ib/opensm_compare_test.cpp).
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "ib/ib_fabric.h"
#include "ib/lid_assignment.h"

namespace ct {

Result<IbFabric> parse_ibnetdiscover(std::string_view text, const std::string& file);

// `lids` may be null.
std::string write_ibnetdiscover(const IbFabric& fabric, const LidAssignment* lids);

}  // namespace ct
