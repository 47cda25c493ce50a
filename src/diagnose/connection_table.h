// What the traffic really is, from the connection tables a host already keeps:
//   `ss -tin` (iproute2 6.1, Debian 12): a header line "State Recv-Q Send-Q Local Address:Port Peer
//     Address:Port Process" unless -H; one line per TCP socket, "State Recv-Q Send-Q Local:Port
//     Peer:Port" (the State column is absent when ss was given a state filter; with -p the process,
//     users:((...)), follows), then a tab-indented line of tcp_info: bytes_sent:N bytes_received:N
//     (or bytes_acked), delivery_rate as a text rate ("231.7Mbps": the rate of the last delivered
//     window, which is neither the average nor the current rate of the connection), busy:Nms;
//   `conntrack -L` (conntrack-tools): "proto num timeout [STATE] src= dst= sport= dport= packets=
//     bytes= ... src= dst= sport= dport= packets= bytes= [ASSURED] mark= use=": the original and the
//     reply direction; bytes only when net.netfilter.nf_conntrack_acct=1 (else reported, not guessed).
// Summary: connections, bytes, the per-connection size distribution (mice below the elephant
// threshold, elephants at or above it; share of all bytes in the top 1 and top 10), and what it
// means for ECMP on a fabric of width n (members of a leaf's up group): connections per member,
// and for the k elephants, P(any collision) = 1 - n!/((n-k)! n^k) and the expected busiest member
// (analysis/birthday.h), with the same probability for 1, 2, ... elephants (the birthday curve of
// that width). The size distribution counts the connections with byte accounting per decade of
// size, [10^k, 10^(k+1)) bytes (decade 0: [0, 10)), mice and elephants apart. Counters (optional)
// add the hosts' NIC rates, netdev and RDMA: RDMA traffic appears in no socket table and no
// conntrack entry.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/text_source.h"
#include "diagnose/counter_rates.h"

namespace ct {

struct Connection {
  std::string protocol;  // "tcp", "udp", ...
  std::string local;     // address:port (conntrack: the original source)
  std::string peer;
  std::uint64_t bytes = 0;         // both directions
  bool bytes_known = true;
  double bits_per_second = -1;     // ss delivery_rate, or over two captures (rates_between); -1 unknown
  SourceLocation where;
};

Result<std::vector<Connection>> read_ss(std::string_view text, const std::string& file);
Result<std::vector<Connection>> read_conntrack(std::string_view text, const std::string& file);
// The same, read a piece at a time as the loader gives it (core/text_source.h): what is held is the
// connections, never the whole text; no piece is read after one with an error, so a huge table
// wrong early is refused after about one piece (the errors of later pieces are not reported).
// A table that lists no connection (empty, a header alone, conntrack's "0 flow entries") is an
// error at file:1:1: a summary of nothing would read as an all-clear.
Result<std::vector<Connection>> read_ss(TextSource& source, const std::string& file);
Result<std::vector<Connection>> read_conntrack(TextSource& source, const std::string& file);

enum class ConnectionSource : std::uint8_t { kSs, kConntrack };

// Two captures of one host's table, `seconds` apart: each connection of `later` found in `earlier`
// (protocol, local, peer) gets the bytes it moved between them over `seconds` as its rate; the
// others none (-1). The rate the connection really ran at, where delivery_rate is a sample.
void rates_between(std::vector<Connection>& later, const std::vector<Connection>& earlier, double seconds);

// What a connection's rate is: ss's delivery_rate, or bytes over the interval of two captures.
enum class RateSource : std::uint8_t { kDeliveryRate, kCaptureInterval };

struct TrafficOptions {
  std::uint64_t elephant_bytes = 10'000'000;  // 10 MB
  std::uint32_t width = 0;                    // ECMP members per leaf up group (0: unknown)
  ConnectionSource source = ConnectionSource::kSs;  // which table: says why a size can be unknown
  RateSource rate_source = RateSource::kDeliveryRate;
  double capture_seconds = 0;  // kCaptureInterval: the captures' interval
};

// Connections of one size decade: [from_bytes, to_bytes) (the last possible decade, 10^19, ends
// at UINT64_MAX inclusive).
struct SizeDecade {
  int decade = 0;  // k: from 10^k bytes (0: from 0)
  std::uint64_t from_bytes = 0;
  std::uint64_t to_bytes = 0;
  std::size_t mice = 0;
  std::size_t elephants = 0;
  double bytes = 0;  // all bytes of the decade's connections
};

// Points of the birthday curve: k = 1 .. min(width + 1, kCollisionCurvePoints) elephants.
inline constexpr std::size_t kCollisionCurvePoints = 64;

struct TrafficSummary {
  std::size_t connections = 0;
  std::size_t bytes_unknown = 0;  // connections without byte accounting
  double total_bytes = 0;
  std::size_t elephants = 0;
  double elephant_bytes = 0;
  double top1_share = 0;
  double top10_share = 0;
  std::vector<Connection> top;  // the ten largest, bytes descending then name
  std::vector<SizeDecade> sizes;  // every decade from the smallest connection's to the largest's
  std::uint32_t width = 0;
  double connections_per_member = 0;
  double elephant_collision = -1;   // P(any collision) of the elephants on `width` members
  double elephant_max_load = -1;    // expected elephants on the busiest member
  std::vector<double> collision_curve;  // [k - 1]: P(any collision) of k elephants on `width` members
  double netdev_bps = -1;           // from counters, all hosts: -1 none
  double rdma_bps = -1;
};

TrafficSummary summarize_traffic(const std::vector<Connection>& connections, const CounterRates* rates,
                                 const TrafficOptions& options);

}  // namespace ct
