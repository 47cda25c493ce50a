// Explicit flows from a file's text (the CLI reads the file; this parses it), YAML or CSV.
//
// YAML: a list under `flows:` (or a bare list), one mapping per flow:
//   flows:
//     - {src: host0/nic0, dst: host5/nic1, src_port: 49152, size: 1GiB}
//     - {src: 10.0.0.1, dst: 10.1.0.5, protocol: udp, src_port: 50000, dst_port: 4791, bursts: 8, idle_us: 200}
// CSV: a header line naming the columns (any order), then one flow per line; `#` starts a comment
// line; cells are separated by commas, a cell may be quoted as in RFC 4180 (core/csv_cursor.h):
//   src,dst,src_port,size
//   host0/nic0,host5/nic1,49152,1GiB
// Fields:
//   src, dst    a backend port by name (host12/nic3/p1, host12/nic3 = plane 0, host12 = NIC 0)
//               or by address (routing/port_address.h). Required.
//   src_port    0..65535. Required (a 5-tuple names its port; Monte Carlo trials redraw it).
//   protocol    udp | tcp | an IP protocol number 0..255. Default udp.
//   dst_port    0..65535. Default 4791 (RoCEv2).
//   size        bytes: an integer, or a number with B, KB, MB, GB, TB (powers of 1000) or KiB, MiB,
//               GiB, TiB (powers of 1024), at most 10^18 bytes (core/units.h parse_size). Optional.
//   bursts      >= 1, default 1;  idle_us  >= 0, default 0 (see traffic/flow.h).
// Every problem is a diagnostic naming file:line:column and the field (YAML: flows[i].field);
// all of them are reported at once.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "traffic/flow.h"

namespace ct {

class NameDirectory;

// The format follows the file name: *.csv is CSV, anything else YAML.
// Ports are named through the fabric's NameDirectory (fabric/name_directory.h).
Result<std::vector<Flow>> parse_flow_file(const std::string& file, const std::string& text, const NameDirectory& names);

}  // namespace ct
