// Counter reading and rates, one edge case a test. Each expectation is worked by hand:
//   plain      1,000 -> 13,500 bytes over 10 s                         = 1,250 B/s
//   wrap32     ifOutOctets 4,294,967,000 -> 704 over 10 s: 2^32 - 4,294,967,000 + 704 = 1,000 B
//                                                                        = 100 B/s
//   wrap64     2^64 - 500 -> 1,500 over 2 s: 500 + 1,500 = 2,000 B     = 1,000 B/s
//   reset      5,000,000 -> 3,000 over 10 s (64-bit, far from 2^64): counted from zero = 300 B/s
//   ib units   port_xmit_data 100 -> 350 (4-octet units) over 5 s: 250 x 4 = 1,000 B = 200 B/s
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "diagnose/counter_rates.h"
#include "diagnose/counter_reader.h"

namespace ct {
namespace {

Scrape scrape(const std::string& text, const std::string& file, std::int64_t t_ms) {
  auto r = read_prometheus_text(text, file, t_ms);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  return r.ok() ? r.value() : Scrape{};
}

CounterRates rates(const std::vector<Scrape>& s, double bound = 0) {
  auto r = compute_rates(s, RateOptions{bound});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_diagnostics(r.errors()));
  return r.ok() ? r.value() : CounterRates{};
}

std::string all(const Diagnostics& d) { return format_diagnostics(d); }

TEST(CounterReader, ReadsNodeExporterLinesAndIgnoresOthers) {
  const std::string text =
      "# HELP node_network_transmit_bytes_total Network device statistic transmit_bytes.\n"
      "# TYPE node_network_transmit_bytes_total counter\n"
      "node_network_transmit_bytes_total{device=\"eth0\",instance=\"host0\"} 1.2345e+06\n"
      "node_network_receive_bytes_total{device=\"eth0\",instance=\"host0\"} 77 1700000000123\n"
      "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 12.5\n";
  const Scrape s = scrape(text, "a.prom", 5000);
  ASSERT_EQ(s.samples.size(), 2u);
  EXPECT_EQ(s.samples[0].count, 1234500u);
  EXPECT_EQ(s.samples[0].time_ms, 5000);
  EXPECT_TRUE(s.samples[0].transmit);
  EXPECT_EQ(s.samples[0].instance, "host0");
  EXPECT_EQ(s.samples[0].device, "eth0");
  EXPECT_EQ(s.samples[1].time_ms, 1700000000123);
  EXPECT_FALSE(s.samples[1].transmit);
  EXPECT_EQ(s.ignored_lines, 1u);
}

TEST(CounterRates, PlainRate) {
  const auto r = rates({scrape("node_network_transmit_bytes_total{device=\"eth0\"} 1000\n", "a", 0),
                        scrape("node_network_transmit_bytes_total{device=\"eth0\"} 13500\n", "b", 10000)});
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_DOUBLE_EQ(r.series[0].bytes_per_second, 1250.0);
}

TEST(CounterRates, Counter32Wraps) {
  const auto r = rates({scrape("ifOutOctets{instance=\"sw\",ifName=\"Ethernet0\"} 4294967000\n", "a", 0),
                        scrape("ifOutOctets{instance=\"sw\",ifName=\"Ethernet0\"} 704\n", "b", 10000)},
                       12.5e9);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_DOUBLE_EQ(r.series[0].bytes_per_second, 100.0);
  EXPECT_EQ(r.series[0].wraps, 1u);
  EXPECT_NE(all(r.warnings).find("wrapped at 2^32"), std::string::npos);
}

TEST(CounterRates, Counter64Wraps) {
  const auto r = rates({scrape("ifHCOutOctets{instance=\"sw\",ifName=\"e1\"} 18446744073709551116\n", "a", 0),
                        scrape("ifHCOutOctets{instance=\"sw\",ifName=\"e1\"} 1500\n", "b", 2000)});
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_DOUBLE_EQ(r.series[0].bytes_per_second, 1000.0);
  EXPECT_EQ(r.series[0].wraps, 1u);
}

TEST(CounterRates, ResetCountsFromZeroNeverNegative) {
  const auto r = rates({scrape("ifHCOutOctets{instance=\"sw\",ifName=\"e1\"} 5000000\n", "a", 0),
                        scrape("ifHCOutOctets{instance=\"sw\",ifName=\"e1\"} 3000\n", "b", 10000)});
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_DOUBLE_EQ(r.series[0].bytes_per_second, 300.0);
  EXPECT_EQ(r.series[0].resets, 1u);
  EXPECT_GE(r.series[0].bytes_per_second, 0.0);
  EXPECT_NE(all(r.warnings).find("b:1:"), std::string::npos);
}

// A Counter32 going back by less than a wrap could carry at the link's speed is a reset: 2^32 -
// 4e9 + 10 = 294,967,306 B in 0.1 s is 2.9 GB/s > the 1.25 GB/s bound (10G).
TEST(CounterRates, ImplausibleWrapIsAReset) {
  const auto r = rates({scrape("ifOutOctets{ifName=\"e1\"} 4000000000\n", "a", 0),
                        scrape("ifOutOctets{ifName=\"e1\"} 10\n", "b", 100)},
                       1.25e9);
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].resets, 1u);
  EXPECT_DOUBLE_EQ(r.series[0].bytes_per_second, 100.0);
}

TEST(CounterRates, InfinibandDataCountsFourOctetUnits) {
  const auto r = rates({scrape("port_xmit_data{device=\"mlx5_0\"} 100\n", "a", 0),
                        scrape("port_xmit_data{device=\"mlx5_0\"} 350\n", "b", 5000)});
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].kind, CounterKind::kRdma);
  EXPECT_DOUBLE_EQ(r.series[0].bytes_per_second, 200.0);
}

TEST(CounterRates, MissingSeriesIsReportedWithWhereItWasSeen) {
  const auto r = rates({scrape("node_network_transmit_bytes_total{device=\"eth0\"} 0\n"
                               "node_network_transmit_bytes_total{device=\"eth1\"} 0\n",
                               "a", 0),
                        scrape("node_network_transmit_bytes_total{device=\"eth0\"} 100\n", "b", 1000)});
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_EQ(r.series[0].device, "eth0");
  EXPECT_NE(all(r.warnings).find("a:2:"), std::string::npos) << all(r.warnings);
  EXPECT_NE(all(r.warnings).find("device=\"eth1\" netdev transmit is in only one scrape"), std::string::npos);
}

// Files given out of time order give the same rate; equal times with different counts are an error.
TEST(CounterRates, NonMonotonicTimestamps) {
  const auto r = rates({scrape("node_network_transmit_bytes_total{device=\"e\"} 3000 3000\n", "late", 0),
                        scrape("node_network_transmit_bytes_total{device=\"e\"} 1000 1000\n", "early", 0)});
  ASSERT_EQ(r.series.size(), 1u);
  EXPECT_DOUBLE_EQ(r.series[0].bytes_per_second, 1000.0);
  const std::vector<Scrape> clash = {scrape("node_network_transmit_bytes_total{device=\"e\"} 3000 1000\n", "x", 0),
                                     scrape("node_network_transmit_bytes_total{device=\"e\"} 1000 1000\n", "y", 0)};
  const auto bad = compute_rates(clash, RateOptions{});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(all(bad.errors()).find("at the same time 1000 ms"), std::string::npos) << all(bad.errors());
}

TEST(CounterReader, DuplicateSeriesIsAnErrorNamingBothLines) {
  const auto r = read_prometheus_text(
      "node_network_transmit_bytes_total{device=\"eth0\"} 1\n# c\nnode_network_transmit_bytes_total{device=\"eth0\"} 2\n",
      "dup.prom", 0);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(all(r.errors()).find("dup.prom:3:"), std::string::npos) << all(r.errors());
  EXPECT_NE(all(r.errors()).find("first at line 1"), std::string::npos);
}

TEST(CounterReader, NaNIsDroppedWithAWarning) {
  // (eth2 keeps the scrape: one with every counter dropped is refused, AScrapeWithNoCounterIsRefused.)
  const Scrape s = scrape("node_network_transmit_bytes_total{device=\"eth0\"} NaN\n"
                          "node_network_transmit_bytes_total{device=\"eth1\"} -5\n"
                          "node_network_transmit_bytes_total{device=\"eth2\"} 7\n",
                          "nan.prom", 0);
  ASSERT_EQ(s.samples.size(), 1u);
  EXPECT_EQ(s.samples[0].device, "eth2");
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_NE(all(s.warnings).find("nan.prom:1:"), std::string::npos);
  EXPECT_NE(all(s.warnings).find("nan.prom:2:"), std::string::npos);
}

TEST(CounterReader, MalformedLinesAreLocated) {
  const auto r = read_prometheus_text("node_network_transmit_bytes_total{device=eth0} 1\n"
                                      "node_network_receive_bytes_total{device=\"eth0\"} twelve\n"
                                      "node_network_receive_bytes_total{device=\"eth1\"} 1 soon\n",
                                      "bad.prom", 0);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 3u);
  EXPECT_EQ(r.errors()[0].where.line, 1);
  EXPECT_EQ(r.errors()[0].where.column, 42);
  EXPECT_NE(r.errors()[1].message.find("not a number"), std::string::npos);
  EXPECT_NE(r.errors()[2].message.find("not an integer"), std::string::npos);
}

// A scrape with no counter sample gives no series: refused at file:1:1, saying which of the three
// it is (nothing, other metrics only, every counter dropped, its warning first).
TEST(CounterReader, AScrapeWithNoCounterIsRefused) {
  const auto empty = read_prometheus_text("", "e.prom", 0);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.errors()[0].where.file, "e.prom");
  EXPECT_EQ(empty.errors()[0].where.line, 1);
  EXPECT_NE(empty.errors()[0].message.find("no samples: an empty scrape"), std::string::npos) << empty.errors()[0].message;
  const auto other = read_prometheus_text("# HELP up\nup 1\nnode_load1 0.5\n", "o.prom", 0);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.errors()[0].message.find("2 sample(s), none an interface byte counter"), std::string::npos)
      << other.errors()[0].message;
  const auto dropped = read_prometheus_text("node_network_transmit_bytes_total{device=\"eth0\"} NaN\n", "d.prom", 0);
  ASSERT_FALSE(dropped.ok());
  ASSERT_EQ(dropped.errors().size(), 2u);
  EXPECT_EQ(dropped.errors()[0].severity, Severity::kWarning);
  EXPECT_NE(dropped.errors()[1].message.find("no usable counter"), std::string::npos) << dropped.errors()[1].message;
}

TEST(Snmpwalk, OutputWithNoCounterIsRefused) {
  for (const char* text : {"", ".1.3.6.1.2.1.31.1.1.1.1.5 = STRING: Ethernet4\n"}) {
    const auto r = read_snmpwalk(text, "e.snmp", "sw", 0);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.errors()[0].where.line, 1);
    EXPECT_NE(r.errors()[0].message.find("no interface counters"), std::string::npos) << r.errors()[0].message;
  }
}

}  // namespace
}  // namespace ct

namespace ct {
namespace {

// snmpwalk -On of a switch, 30 s apart: ifHCOutOctets.5 (ifName Ethernet4) 1,000 -> 3,001,000:
// 3,000,000 B / 30 s = 100,000 B/s; ifOutOctets.7 (no ifName, ifDescr "port 7") wraps:
// 4,294,967,000 -> 2,704: 2^32 - 4,294,967,000 + 2,704 = 3,000 B / 30 s = 100 B/s.
TEST(Snmpwalk, ReadsIfMibCountersWithNamesAndWraps) {
  const std::string a =
      ".1.3.6.1.2.1.31.1.1.1.1.5 = STRING: Ethernet4\n"
      ".1.3.6.1.2.1.2.2.1.2.7 = STRING: \"port 7\"\n"
      ".1.3.6.1.2.1.31.1.1.1.10.5 = Counter64: 1000\n"
      "IF-MIB::ifOutOctets.7 = Counter32: 4294967000\n"
      ".1.3.6.1.2.1.1.3.0 = Timeticks: (12345) 0:02:03.45\n";
  const std::string b =
      ".1.3.6.1.2.1.31.1.1.1.1.5 = STRING: Ethernet4\n"
      ".1.3.6.1.2.1.2.2.1.2.7 = STRING: \"port 7\"\n"
      ".1.3.6.1.2.1.31.1.1.1.10.5 = Counter64: 3001000\n"
      "IF-MIB::ifOutOctets.7 = Counter32: 2704\n";
  ASSERT_TRUE(looks_like_snmpwalk(a));
  auto sa = read_snmpwalk(a, "a.snmp", "p0/leaf/0", 0);
  auto sb = read_snmpwalk(b, "b.snmp", "p0/leaf/0", 30000);
  ASSERT_TRUE(sa.ok() && sb.ok());
  EXPECT_EQ(sa->ignored_lines, 1u);
  const std::vector<Scrape> s = {sa.value(), sb.value()};
  auto r = compute_rates(s, RateOptions{12.5e9});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->series.size(), 2u);
  EXPECT_EQ(r->series[0].device, "Ethernet4");
  EXPECT_DOUBLE_EQ(r->series[0].bytes_per_second, 100000.0);
  EXPECT_EQ(r->series[1].device, "port 7");
  EXPECT_DOUBLE_EQ(r->series[1].bytes_per_second, 100.0);
  EXPECT_EQ(r->series[1].wraps, 1u);
}

TEST(Snmpwalk, BadValuesAreLocated) {
  auto r = read_snmpwalk(".1.3.6.1.2.1.2.2.1.16.7 = Counter32: 4294967296\n.1.3.6.1.2.1.31.1.1.1.10.x = Counter64: 1\n",
                         "bad.snmp", "sw", 0);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 2u);
  EXPECT_EQ(r.errors()[0].where.line, 1);
  EXPECT_NE(r.errors()[0].message.find("not a Counter32"), std::string::npos);
  EXPECT_EQ(r.errors()[1].field, "ifIndex");
}

}  // namespace
}  // namespace ct
