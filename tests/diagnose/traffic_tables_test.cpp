// traffic on the tables a host keeps (issue 22, items 18 and 20), worked by hand.
//
// 18. conntrack with accounting off (nf_conntrack_acct=0, the kernel's default) prints entries
//     without packets= and bytes=: two 300 MB iperf3 streams read as connections of unknown size.
//     The summary must not say "0 elephants: no collision is possible": sizes unknown, and how to
//     turn accounting on (sysctl -w net.netfilter.nf_conntrack_acct=1).
// 20. Two ss captures 10 s apart: a stream whose bytes went 100,000,000 -> 475,000,000 moved
//     375,000,000 bytes = 3e9 bits in 10 s = 0.30 Gb/s, though its delivery_rate sample says
//     0.13 Gb/s; an idle connection (bytes unchanged) runs at 0 though its delivery_rate says
//     36 Gb/s. With one capture the column is named for what it is: ss's delivery_rate.
#include <gtest/gtest.h>

#include "diagnose/connection_table.h"
#include "report/connection_report.h"

namespace ct {
namespace {

TEST(TrafficTables, ConntrackWithoutAccountingSaysTheSizesAreUnknownAndHowToCountThem) {
  const std::string text =
      "tcp      6 431999 ESTABLISHED src=192.0.2.1 dst=192.0.2.2 sport=40000 dport=5201 src=192.0.2.2 dst=192.0.2.1 "
      "sport=5201 dport=40000 [ASSURED] mark=0 use=1\n"
      "tcp      6 431999 ESTABLISHED src=192.0.2.1 dst=192.0.2.3 sport=40001 dport=5201 src=192.0.2.3 dst=192.0.2.1 "
      "sport=5201 dport=40001 [ASSURED] mark=0 use=1\n";
  const auto c = read_conntrack(text, "ct.txt");
  ASSERT_TRUE(c.ok()) << format_diagnostics(c.errors());
  TrafficOptions o;
  o.source = ConnectionSource::kConntrack;
  o.width = 32;
  const TrafficSummary s = summarize_traffic(c.value(), nullptr, o);
  EXPECT_EQ(s.bytes_unknown, 2u);
  const std::string out = to_text(s, o);
  EXPECT_EQ(out.find("no collision is possible"), std::string::npos) << out;
  EXPECT_EQ(out.find("0 elephants"), std::string::npos) << out;
  EXPECT_NE(out.find("sizes unknown"), std::string::npos) << out;
  EXPECT_NE(out.find("sysctl -w net.netfilter.nf_conntrack_acct=1"), std::string::npos) << out;
  EXPECT_NE(to_json(s, o).find("\"bytes_unknown_why\": \"2 of 2 conntrack entries have no byte counters"), std::string::npos);
}

std::string ss_capture(unsigned long long stream_bytes, unsigned long long idle_bytes) {
  return "State Recv-Q Send-Q Local Address:Port  Peer Address:Port Process\n"
         "ESTAB 0      0          192.0.2.1:40000      192.0.2.2:5201\n"
         "\t cubic wscale:7,7 rto:204 rtt:0.1/0.05 mss:1448 cwnd:10 bytes_sent:" + std::to_string(stream_bytes) +
         " bytes_acked:" + std::to_string(stream_bytes) + " bytes_received:0 send 1.2Gbps delivery_rate 130Mbps\n"
         "ESTAB 0      0          192.0.2.1:40001      192.0.2.3:22\n"
         "\t cubic wscale:7,7 rto:204 rtt:0.1/0.05 mss:1448 cwnd:10 bytes_sent:" + std::to_string(idle_bytes) +
         " bytes_received:" + std::to_string(idle_bytes) + " send 40Gbps delivery_rate 36Gbps\n";
}

TEST(TrafficTables, TwoCapturesGiveBytesOverTheIntervalAndOneNamesDeliveryRate) {
  auto before = read_ss(ss_capture(100'000'000, 5000), "t0.txt");
  auto after = read_ss(ss_capture(475'000'000, 5000), "t1.txt");
  ASSERT_TRUE(before.ok() && after.ok());
  TrafficOptions one;
  one.width = 32;
  const std::string single = to_text(summarize_traffic(after.value(), nullptr, one), one);
  EXPECT_NE(single.find("ss delivery_rate"), std::string::npos) << single;
  EXPECT_NE(single.find("0.13 Gb/s"), std::string::npos) << single;
  rates_between(after.value(), before.value(), 10);
  EXPECT_DOUBLE_EQ(after.value()[0].bits_per_second, 0.3e9);
  EXPECT_DOUBLE_EQ(after.value()[1].bits_per_second, 0);
  TrafficOptions two = one;
  two.rate_source = RateSource::kCaptureInterval;
  two.capture_seconds = 10;
  const std::string out = to_text(summarize_traffic(after.value(), nullptr, two), two);
  EXPECT_NE(out.find("rate over 10 s"), std::string::npos) << out;
  EXPECT_NE(out.find("0.30 Gb/s"), std::string::npos) << out;
  EXPECT_EQ(out.find("36.00 Gb/s"), std::string::npos) << out;
}

}  // namespace
}  // namespace ct
