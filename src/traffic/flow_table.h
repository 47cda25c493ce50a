// A flow table: the flows `clustertwin simulate --flows FILE` runs, in the format its
// `--csv-flows` writes, so that a run's flows can be replayed, edited and fed back
// (docs/models/flow-engine.md, "Flow tables"). Plain CSV, optionally gzip-compressed (inflated by
// the loader, io/files.h, within the input size limit).
//
// Format. A header line names the columns (any order); then one flow per line. Blank lines and
// lines starting with '#' are skipped. Cells are separated by commas; a cell may be quoted with '"'
// ("" inside is one quote). Columns:
//   flow          required: the flow's id, an integer 0..4294967294, unique in the file; `after`
//                 names flows by it. Output renumbers 0..n-1 in file order.
//   src, dst      required: a backend port (host3/nic1/p0, host3/nic1, an address) or a GPU
//                 (host3/gpu2, gpu26), resolved by the fabric's name directory (did-you-mean).
//   bytes         required: 0..10^18, an integer or a size with a unit (64KiB, 1GB).
//   start_s       earliest start, seconds, 0..10^6 (default 0); decimals to the picosecond read exactly.
//   operation     the operation the flow belongs to (default "flows"); rows of one operation are
//                 contiguous (as --csv-flows writes them); each operation is reported as one.
//   after         flows (ids, separated by spaces) that must complete first; each an earlier row.
//   delay_s       after the last of `after` completes, wait this long (seconds, 0..10^6, default 0).
//   weight        max-min weight, (0, 10^6] (default 1).
//   udp_src_port  0..65535, the RoCEv2 source port ECMP hashes (default: the port of the row's
//                 connection, its ends, channel and qp, under the scenario seed:
//                 workload/flow_table_workload.h; never of the row's id or place).
//   path          the route, pinned: hops separated by '|', each "A -- B" (a cable; "A -- B #k" for
//                 the k-th of parallel cables in id order, from 0; or a link id) with an optional
//                 direction " up" (from its lower end A) or " down", or "host3/gpu2 nvlink out|in";
//                 a missing direction follows from the walk from src. Or one switch name: the
//                 shortest path from src through that switch to dst (lowest cable ids on ties).
//                 Empty: the fabric routes the flow (ECMP, spray or adaptive, as the scenario says).
//                 --csv-flows writes a sprayed flow's hops with their share ("...up*0.25"); such
//                 a path is refused (the engine's pinned routes carry whole flows): empty it.
//   instance, iteration, step, channel, qp   labels carried to the output (integers, default 0).
//   end_s, rate_gbps, reroutes, status, bytes_left   results --csv-flows writes; ignored.
//   ecn_marks, cnps, out_of_order   a packet run's results --csv-flows writes (its packets
//                 delivered marked, its receiver's CNPs, its packets delivered after a later one);
//                 ignored.
// Without a path, src and dst must be two ports of one plane, or two GPUs of one host (an NVLink
// flow). Every problem is a diagnostic naming file:line:column and the column; all are reported
// (up to 100).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "core/text_source.h"
#include "core/units.h"
#include "fabric/name_directory.h"
#include "routing/route_hop.h"

namespace ct {

inline constexpr std::uint32_t kNoTableGpu = 0xFFFF'FFFFU;

struct TableFlow {
  std::uint32_t operation = 0;  // index into FlowTable::operations
  std::uint32_t id = 0;         // as written
  std::uint32_t src_gpu = kNoTableGpu;  // a GPU endpoint, or kNoTableGpu
  std::uint32_t dst_gpu = kNoTableGpu;
  VertexId src_port;  // a port endpoint, or invalid
  VertexId dst_port;
  bool has_udp_port = false;
  std::uint16_t udp_src_port = 0;
  Bytes bytes{0};
  double weight = 1.0;
  TimePs start{0};
  TimePs delay{0};
  std::uint32_t instance = 0, iteration = 0, step = 0, channel = 0, qp = 0;
  std::uint32_t route_begin = 0;  // into FlowTable::hops; route_size 0: routed by the fabric
  std::uint32_t route_size = 0;
  std::uint32_t after_begin = 0;  // into FlowTable::after: earlier rows (0-based) waited for
  std::uint32_t after_size = 0;
  int line = 0;
};

struct FlowTable {
  std::string file;
  std::vector<std::string> operations;  // in order of first appearance
  std::vector<TableFlow> flows;         // in file order
  std::vector<RouteHop> hops;
  std::vector<std::uint32_t> after;
};

// Parses a flow table from the file's text (the loader, io/files.h, has inflated a gzip file).
Result<FlowTable> parse_flow_table(const std::string& file, std::string_view text, const NameDirectory& names);
// The same, read a piece at a time as the loader gives it (core/text_source.h): what is held is the
// table and one piece, never the whole text. A table with an error is not read past the piece that
// holds it (a huge table wrong early is refused after about one piece); an error of the source
// (the input limit, a gzip bomb, a read error) is one of the diagnostics. The table and its
// errors are the same as the whole text's, but for the errors after that piece.
Result<FlowTable> parse_flow_table(const std::string& file, TextSource& source, const NameDirectory& names);

}  // namespace ct
