// Connection tables, worked by hand.
//   ss: three sockets, bytes sent+received 1,000+500, 2,000+0 and 60,000,000,000+1,000,000:
//       total 60,001,003,500 B; one elephant (>= 10 MB); top-1 share 60,001,000,000 / 60,001,003,500.
//   conntrack: an entry with accounting (orig 1,234 + reply 4,321 = 5,555 B) and one without.
//   ECMP: 2 elephants on 4 members collide with P = 1 - (4 x 3)/4^2 = 1/4; 3 connections on 4
//   members are 0.75 per member.
#include <gtest/gtest.h>

#include "diagnose/connection_table.h"

namespace ct {
namespace {

const char* kSs =
    "ESTAB 0      0      10.0.0.1:22   10.0.0.2:51234\n"
    "\t cubic wscale:7,7 rto:204 rtt:0.5/0.25 mss:1448 cwnd:10 bytes_sent:1000 bytes_acked:1001 bytes_received:500 "
    "send 231.7Mbps delivery_rate 100Mbps busy:10ms\n"
    "ESTAB 0      0      10.0.0.1:443  10.0.0.3:40000\n"
    "\t cubic bytes_acked:2000 send 1.5Gbps\n"
    "0      0      [2001:db8::1]:5201  [2001:db8::2]:60000\n"
    "\t bbr bytes_sent:60000000000 bytes_received:1000000 delivery_rate 8Gbps\n";

TEST(ConnectionTable, ReadsSsWithAndWithoutTheStateColumn) {
  auto r = read_ss(kSs, "ss.txt");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ(r.value()[0].bytes, 1500u);
  EXPECT_DOUBLE_EQ(r.value()[0].bits_per_second, 100e6);  // delivery_rate, never send
  EXPECT_EQ(r.value()[1].bytes, 2000u);
  EXPECT_DOUBLE_EQ(r.value()[1].bits_per_second, -1);  // "send" is the window's pace, not a delivered rate
  EXPECT_EQ(r.value()[2].local, "[2001:db8::1]:5201");
  const TrafficSummary s = summarize_traffic(r.value(), nullptr, TrafficOptions{10'000'000, 4});
  EXPECT_DOUBLE_EQ(s.total_bytes, 60'001'003'500.0);
  EXPECT_EQ(s.elephants, 1u);
  EXPECT_DOUBLE_EQ(s.top1_share, 60'001'000'000.0 / 60'001'003'500.0);
  EXPECT_DOUBLE_EQ(s.connections_per_member, 0.75);
  EXPECT_DOUBLE_EQ(s.elephant_collision, 0.0);  // one elephant cannot collide
}

TEST(ConnectionTable, TwoElephantsOnFourMembers) {
  std::vector<Connection> c(2);
  c[0].bytes = c[1].bytes = 20'000'000;
  const TrafficSummary s = summarize_traffic(c, nullptr, TrafficOptions{10'000'000, 4});
  EXPECT_DOUBLE_EQ(s.elephant_collision, 0.25);
  EXPECT_DOUBLE_EQ(s.elephant_max_load, 1.25);  // 1 x 3/4 + 2 x 1/4
}

// Sizes 0, 9, 10, 999, 1000 and 25,000,000 bytes with elephants from 20 MB: decades [0, 10) holds
// 0 and 9; [10, 100) holds 10; [100, 1000) holds 999; [1000, 10^4) holds 1000; 10^4 .. 10^6 are
// empty but listed; [10^7, 10^8) holds the one elephant. On 4 members the birthday curve is
// P(k) = 1 - 4!/((4-k)! 4^k): 0, 1/4, 1 - 6/16 = 5/8, 1 - 6/64 = 29/32, and 1 for k = 5.
TEST(ConnectionTable, SizeDecadesAndTheBirthdayCurve) {
  std::vector<Connection> c(6);
  const std::uint64_t sizes[] = {0, 9, 10, 999, 1000, 25'000'000};
  for (std::size_t i = 0; i < c.size(); ++i) c[i].bytes = sizes[i];
  const TrafficSummary s = summarize_traffic(c, nullptr, TrafficOptions{20'000'000, 4});
  ASSERT_EQ(s.sizes.size(), 8u);
  EXPECT_EQ(s.sizes[0].from_bytes, 0u);
  EXPECT_EQ(s.sizes[0].to_bytes, 10u);
  EXPECT_EQ(s.sizes[0].mice, 2u);
  EXPECT_DOUBLE_EQ(s.sizes[0].bytes, 9.0);
  EXPECT_EQ(s.sizes[1].mice, 1u);
  EXPECT_EQ(s.sizes[2].mice, 1u);
  EXPECT_EQ(s.sizes[3].from_bytes, 1000u);
  EXPECT_EQ(s.sizes[3].mice, 1u);
  for (std::size_t k = 4; k < 7; ++k) EXPECT_EQ(s.sizes[k].mice + s.sizes[k].elephants, 0u) << k;
  EXPECT_EQ(s.sizes[7].decade, 7);
  EXPECT_EQ(s.sizes[7].from_bytes, 10'000'000u);
  EXPECT_EQ(s.sizes[7].to_bytes, 100'000'000u);
  EXPECT_EQ(s.sizes[7].mice, 0u);
  EXPECT_EQ(s.sizes[7].elephants, 1u);
  EXPECT_DOUBLE_EQ(s.sizes[7].bytes, 25e6);
  ASSERT_EQ(s.collision_curve.size(), 5u);
  const double want[] = {0.0, 0.25, 0.625, 29.0 / 32.0, 1.0};
  for (std::size_t k = 0; k < 5; ++k) EXPECT_NEAR(s.collision_curve[k], want[k], 1e-15) << k + 1;
}

TEST(ConnectionTable, ASizeNearTwoToTheSixtyFourEndsTheLastDecadeAtTheLargestCount) {
  std::vector<Connection> c(1);
  c[0].bytes = UINT64_MAX;  // 1.8 x 10^19: decade 19
  const TrafficSummary s = summarize_traffic(c, nullptr, TrafficOptions{});
  ASSERT_EQ(s.sizes.size(), 1u);
  EXPECT_EQ(s.sizes[0].decade, 19);
  EXPECT_EQ(s.sizes[0].from_bytes, 10'000'000'000'000'000'000u);
  EXPECT_EQ(s.sizes[0].to_bytes, UINT64_MAX);
  EXPECT_TRUE(s.collision_curve.empty());  // width unknown
}

TEST(ConnectionTable, ReadsConntrackAndSaysWhenBytesAreNotCounted) {
  auto r = read_conntrack(
      "tcp      6 431999 ESTABLISHED src=10.0.0.1 dst=10.0.0.2 sport=51234 dport=22 packets=10 bytes=1234 "
      "src=10.0.0.2 dst=10.0.0.1 sport=22 dport=51234 packets=8 bytes=4321 [ASSURED] mark=0 use=1\n"
      "udp      17 29 src=10.0.0.5 dst=10.0.0.6 sport=4791 dport=4791 [UNREPLIED] src=10.0.0.6 dst=10.0.0.5 sport=4791 "
      "dport=4791 mark=0 use=1\n"
      "conntrack v1.4.7 (conntrack-tools): 2 flow entries have been shown.\n",
      "ct.txt");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(r.value()[0].bytes, 5555u);
  EXPECT_EQ(r.value()[0].local, "10.0.0.1:51234");
  EXPECT_FALSE(r.value()[1].bytes_known);
  const TrafficSummary s = summarize_traffic(r.value(), nullptr, TrafficOptions{});
  EXPECT_EQ(s.bytes_unknown, 1u);
}

TEST(ConnectionTable, BadLinesAreLocated) {
  auto ss = read_ss("ESTAB x y 1.2.3.4:5 6.7.8.9:10\n", "ss.txt");
  ASSERT_FALSE(ss.ok());
  EXPECT_EQ(ss.errors()[0].where.line, 1);
  auto ct = read_conntrack("tcp 6 10 src=1.2.3.4 dst=5.6.7.8 bytes=lots\n", "ct.txt");
  ASSERT_FALSE(ct.ok());
  EXPECT_EQ(ct.errors()[0].where.column, 34);  // "tcp 6 10 src=1.2.3.4 dst=5.6.7.8 " is 33 characters
  EXPECT_EQ(ct.errors()[0].field, "bytes");
}

// A table that lists no connection would summarize to "0 connections", an all-clear: refused at
// file:1:1 whether it is empty, ss's header alone or conntrack's own "0 flow entries" line.
TEST(ConnectionTable, ATableWithNoConnectionIsRefused) {
  for (const char* text : {"", "State Recv-Q Send-Q Local Address:Port Peer Address:Port Process\n", "# nothing\n"}) {
    auto ss = read_ss(text, "ss.txt");
    ASSERT_FALSE(ss.ok()) << text;
    EXPECT_EQ(ss.errors()[0].where.file, "ss.txt");
    EXPECT_EQ(ss.errors()[0].where.line, 1);
    EXPECT_NE(ss.errors()[0].message.find("no connections"), std::string::npos) << ss.errors()[0].message;
  }
  for (const char* text : {"", "conntrack v1.4.7 (conntrack-tools): 0 flow entries have been shown.\n"}) {
    auto ct = read_conntrack(text, "ct.txt");
    ASSERT_FALSE(ct.ok()) << text;
    EXPECT_EQ(ct.errors()[0].where.line, 1);
    EXPECT_EQ(ct.errors()[0].field, "conntrack");
    EXPECT_NE(ct.errors()[0].message.find("no connections"), std::string::npos) << ct.errors()[0].message;
  }
}

}  // namespace
}  // namespace ct
