// `ethtool -S IFACE` output of one interface, read as counter samples (counter_reader.h).
//
// Format (ethtool.c, do_gstats): the line "NIC statistics:", then one line per driver statistic,
//   "     %.*s: %llu\n"   five spaces, the name (at most ETH_GSTRING_LEN = 32 characters), ": ",
//                         the value as an unsigned 64-bit decimal.
// Names are the driver's. Read, for the mlx5 driver (drivers/net/ethernet/mellanox/mlx5/core/
// en_stats.c) and the names other drivers share:
//   tx_bytes / rx_bytes                          kNetdev  the kernel's software counters (the sum
//                                                         of the rings; what /proc/net/dev shows)
//   tx<N>_bytes / rx<N>_bytes (mlx5 rings),      kNetdev  per queue: summed into the netdev
//   tx_queue_<N>_bytes / rx_queue_<N>_bytes               counter when the file has no tx_bytes /
//                                                         rx_bytes line, else ignored
//   tx_vport_rdma_unicast_bytes / rx_...         kRdma    RDMA (RoCE) bytes the NIC moved without
//                                                         the kernel: invisible in tx_bytes
//   tx_bytes_phy / rx_bytes_phy                  kPhy     the physical port: everything on the wire
// Every other statistic (packets, per-priority tx_prio<N>_bytes, errors) is counted and ignored.
// The output names neither the host, the interface nor the time: `instance`, `device` and
// `time_ms` come from the caller (the command line's INSTANCE,DEVICE=FILE and --interval).
// Errors (file:line:column): no "NIC statistics:" header, a line without "name: value", a value
// that is not an unsigned 64-bit decimal, the same statistic twice, a per-queue sum past 2^64, no
// byte counter at all (file:1:1).
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "diagnose/counter_reader.h"

namespace ct {

Result<Scrape> read_ethtool_stats(std::string_view text, const std::string& file, const std::string& instance,
                                  const std::string& device, std::int64_t time_ms);

// True when the first non-blank line of `text` is "NIC statistics:".
bool looks_like_ethtool(std::string_view text);

}  // namespace ct
