// The flows a user knows about and what they achieved: the throughput witness, and the keys the
// path oracle walks. Two readers:
//   iperf3 --json (client side): start.connected[0] (local_host, local_port, remote_host,
//     remote_port), start.test_start.protocol ("TCP" / "UDP") and .reverse (1: the server sent),
//     and the achieved rate end.sum_received.bits_per_second (TCP) or end.sum.bits_per_second (UDP).
//   a flows CSV (what `clustertwin lab run` writes for its own sender; core/csv_cursor.h):
//     src_ip,dst_ip,protocol,src_port,dst_port,bits_per_second
//   perftest (ib_write_bw, ib_send_bw, ib_read_bw) report text, the sender's side:
//     " local address: LID 0000 QPN 0x0108 PSN 0x5a5f2f RKey 0x1fffbd VAddr 0x007f8b8c5ec000"
//     " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:01"   (16 bytes in decimal; RoCEv2:
//                                                                 an IPv4-mapped address)
//     " remote address: LID ... QPN 0x0109 ..." and its GID, one local and one remote block per QP;
//     " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]"
//     " 65536      5000             11715.16            11714.90		   0.187438"
//   perftest divides by 0x100000 for MB/sec and by 125000000 for Gb/sec (--report_gbits)
//   (perftest_resources.c: format_factor), so MB/sec x 8 x 2^20 and Gb/sec x 1e9 are bits/s. The
//   last result row is taken (with -a, the largest message). The data goes local -> remote
//   (remote -> local for "RDMA_Read"). One flow per QP, each at BW average / QPs. A QP's RoCEv2
//   UDP source port is the kernel's rdma_get_udp_sport(0, lqpn, rqpn) (include/rdma/ib_verbs.h):
//     fl = (lqpn x rqpn) ^ >> 20 ^ >> 40, masked to 20 bits; sport = 0xC000 | ((fl & 0x3FFF) ^ (fl >> 14));
//   the destination port is 4791 (IANA RoCEv2).
// Addresses are the fabric's port addresses (routing/port_address.h); a flow whose address is no
// port of the fabric is an error naming it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "core/text_source.h"
#include "routing/flow_key.h"
#include "topology/topology.h"

namespace ct {

struct FlowResult {
  FlowKey key;
  VertexId src;
  VertexId dst;
  double bits_per_second = 0;  // achieved
  SourceLocation where;
};

Result<std::vector<FlowResult>> read_iperf3_json(std::string_view text, const std::string& file, const Topology& topology);
Result<std::vector<FlowResult>> read_perftest(std::string_view text, const std::string& file, const Topology& topology);
// The same, read a piece at a time as the loader gives it (core/text_source.h): what is held is the
// QP addresses and the last result row, never the whole text; no piece is read after one with an
// error, so a huge output wrong early is refused after about one piece.
Result<std::vector<FlowResult>> read_perftest(TextSource& source, const std::string& file, const Topology& topology);
// True when `text` holds a perftest result header ("BW average[").
bool looks_like_perftest(std::string_view text);
// The RoCEv2 UDP source port of a QP pair (above).
std::uint16_t roce_udp_source_port(std::uint32_t local_qpn, std::uint32_t remote_qpn);
// A CSV with no flow row (empty, comments only, or a header alone) is an error at file:1:1.
Result<std::vector<FlowResult>> read_flows_csv(std::string_view text, const std::string& file, const Topology& topology);
// The same, a piece at a time, as read_perftest's.
Result<std::vector<FlowResult>> read_flows_csv(TextSource& source, const std::string& file, const Topology& topology);

}  // namespace ct
