// The flows a user knows about and what they achieved: the throughput witness, and the keys the
// path oracle walks. Two readers:
//   iperf3 --json (client side): start.connected[0] (local_host, local_port, remote_host,
//     remote_port), start.test_start.protocol ("TCP" / "UDP") and .reverse (1: the server sent),
//     and the achieved rate end.sum_received.bits_per_second (TCP) or end.sum.bits_per_second (UDP).
//   a flows CSV (what `clustertwin lab run` writes for its own sender):
//     src_ip,dst_ip,protocol,src_port,dst_port,bits_per_second
// Addresses are the fabric's port addresses (routing/port_address.h); a flow whose address is no
// port of the fabric is an error naming it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
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
Result<std::vector<FlowResult>> read_flows_csv(std::string_view text, const std::string& file, const Topology& topology);

}  // namespace ct
