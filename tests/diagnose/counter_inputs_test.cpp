// The inputs of diagnose and traffic as an audit found them on real hosts (issue 22, items 14-16
// and 19), each case worked by hand.
//
// 14. Two hosts' node_exporter scrapes (node_exporter's own output names no host), 10 s apart:
//     host a's eth0 moves 1,000,000 -> 1,125,000 bytes (12,500 B/s = 100 kb/s), host b's eth0
//     0 -> 3,337,500,000 (333,750,000 B/s = 2.67 Gb/s). Given as a=FILE, b=FILE they are two series,
//     one per host, at 100 kb/s and 2.67 Gb/s; without HOST= a sample naming no host is refused
//     (merged, the four samples made one series read at 2.67 Gb/s for a link that carried 100 kb/s).
// 15. A /federate scrape with timestamps (ms since 1970) beside a node_exporter scrape without, and
//     --interval 10: the second's time would be 10,000 ms after 1970, before the first; refused,
//     naming a sample of each (it read 0 b/s with a reset that never happened).
// 16. A port map whose rows' instances are GCE host names (`instance-1`): data, not a header; only
//     the first row may be the header, and only when it reads instance,device,vertex,peer[,cable].
// 19. `metric {labels} value ts` (a blank before `{`) reads as `metric{labels} value ts`; two
//     series that differ only in `job` with one count are one counter, with two counts an error
//     naming both jobs; a device named `eth0,1` or `a\nb` is written to the map CSV by csv_cell
//     and read back.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/csv_cursor.h"
#include "diagnose/counter_inputs.h"
#include "diagnose/flow_results.h"
#include "diagnose/port_map.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/fixture_fabric.h"
#include "support/test_paths.h"

namespace ct {
namespace {

const Fabric& fat_tree() { return fixtures::lab_fat_tree_4(); }

std::string eth0(unsigned long long bytes) {
  return "# HELP node_network_transmit_bytes_total Network device statistic transmit_bytes.\n"
         "node_network_transmit_bytes_total{device=\"eth0\"} " + std::to_string(bytes) + "\n";
}

TEST(CounterInputs, EachHostKeepsItsSeriesWhenNamedWithHostEqualsFile) {
  // As the command line gives them, interleaved: a=a-t0.prom b=b-t0.prom a=a-t1.prom b=b-t1.prom
  // --interval 10; each host's k-th file is at k x 10 s.
  CounterInputs in;
  in.interval_s = 10;
  in.scrapes = {{"a-t0.prom", eth0(1000000)}, {"b-t0.prom", eth0(0)}, {"a-t1.prom", eth0(1125000)}, {"b-t1.prom", eth0(3337500000)}};
  in.instances = {"a", "b", "a", "b"};
  auto all = read_scrapes(in);
  ASSERT_TRUE(all.ok()) << format_diagnostics(all.errors());
  auto r = compute_rates(all.value(), RateOptions{});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->series.size(), 2u);
  EXPECT_EQ(r->series[0].instance, "a");
  EXPECT_DOUBLE_EQ(r->series[0].bytes_per_second * 8, 100e3);
  EXPECT_EQ(r->series[1].instance, "b");
  EXPECT_DOUBLE_EQ(r->series[1].bytes_per_second * 8, 2.67e9);
  EXPECT_TRUE(r->warnings.empty()) << format_diagnostics(r->warnings);
}

TEST(CounterInputs, ASampleNamingNoHostIsRefusedAndAnotherHostToo) {
  CounterInputs in;
  in.scrapes = {{"a-t0.prom", eth0(1)}, {"b-t0.prom", eth0(2)}};
  in.interval_s = 10;
  auto r = read_scrapes(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors()[0].where.file, "a-t0.prom");
  EXPECT_EQ(r.errors()[0].where.line, 2);
  EXPECT_NE(r.errors()[0].message.find("HOST=FILE"), std::string::npos) << r.errors()[0].message;
  in.scrapes = {{"x.prom", "node_network_transmit_bytes_total{device=\"eth0\",instance=\"b:9100\"} 5\n"}};
  in.instances = {"a"};
  r = read_scrapes(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("instance=\"b:9100\" but the file was given as a=FILE"), std::string::npos)
      << r.errors()[0].message;
}

TEST(CounterInputs, ATimestampedScrapeBesideAnUntimestampedOneIsRefusedWithTheReason) {
  CounterInputs in;
  in.scrapes = {{"federate.prom", "node_network_transmit_bytes_total{device=\"eth0\",instance=\"a\"} 1000 1764770400000\n"},
                {"node.prom", "node_network_transmit_bytes_total{device=\"eth0\",instance=\"a\"} 11000\n"}};
  in.interval_s = 10;
  auto r = read_scrapes(in);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u);
  EXPECT_EQ(r.errors()[0].where.file, "node.prom");
  EXPECT_NE(r.errors()[0].message.find("federate.prom:1 carries its own"), std::string::npos) << r.errors()[0].message;
  // Both with timestamps: 10,000 bytes in 10 s.
  in.scrapes[1].text = "node_network_transmit_bytes_total{device=\"eth0\",instance=\"a\"} 11000 1764770410000\n";
  auto ok = read_scrapes(in);
  ASSERT_TRUE(ok.ok());
  auto rates = compute_rates(ok.value(), RateOptions{});
  ASSERT_TRUE(rates.ok());
  EXPECT_DOUBLE_EQ(rates->series[0].bytes_per_second * 8, 8000);
  EXPECT_TRUE(rates->warnings.empty());
}

TEST(PortMap, ARowWhoseInstanceBeginsWithInstanceIsData) {
  const auto m = read_port_map_csv(
      "instance,device,vertex,peer\n"
      "instance-1,eth0,p0/pod0/leaf/0,p0/pod0/spine/0\n"
      "instance-2,eth0,p0/pod0/leaf/0,p0/pod0/spine/1\n",
      "map.csv", fat_tree().names());
  ASSERT_TRUE(m.ok()) << format_diagnostics(m.errors());
  EXPECT_EQ(m->size(), 2u);
  EXPECT_NE(m->find("instance-1", "eth0"), nullptr);
  // Without a header the first row is data too; a header anywhere else is a bad row.
  const auto bare = read_port_map_csv("instance-1,eth0,p0/pod0/leaf/0,p0/pod0/spine/0\n", "map.csv", fat_tree().names());
  ASSERT_TRUE(bare.ok());
  EXPECT_NE(bare->find("instance-1", "eth0"), nullptr);
  const auto late = read_port_map_csv("instance-1,eth0,p0/pod0/leaf/0,p0/pod0/spine/0\ninstance,device,vertex,peer\n",
                                      "map.csv", fat_tree().names());
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.errors()[0].where.line, 2);
}

TEST(PortMap, DeviceNamesWithACommaOrALineBreakAreWrittenAndReadBack) {
  const std::string names[] = {"eth0,1", "a\nb", "say \"hi\"", " padded "};
  std::string map = "instance,device,vertex,peer\n";
  for (const std::string& n : names) map += "h," + csv_cell(n) + ",p0/pod0/leaf/0,p0/pod0/spine/0\n";
  map += "h,last,p0/pod0/leaf/0,p0/pod0/spine/1\n";
  const auto m = read_port_map_csv(map, "map.csv", fat_tree().names());
  ASSERT_TRUE(m.ok()) << format_diagnostics(m.errors());
  EXPECT_EQ(m->size(), 5u);
  for (const std::string& n : names) EXPECT_NE(m->find("h", n), nullptr) << n;
  // The row after the two-line record is located at its own line, 7.
  EXPECT_EQ(m->find("h", "last")->where.line, 7);
  EXPECT_EQ(csv_cell("eth0"), "eth0");
  EXPECT_EQ(csv_cell("eth0,1"), "\"eth0,1\"");
}

// A map of no rows left every series unmapped, and diagnose reported "0 of 0 groups ... imbalanced":
// refused at file:1:1 (empty, comments only, a header alone).
TEST(PortMap, AMapWithNoRowIsRefused) {
  for (const char* text : {"", "# no rows\n", "instance,device,vertex,peer\n"}) {
    const auto m = read_port_map_csv(text, "map.csv", fat_tree().names());
    ASSERT_FALSE(m.ok()) << text;
    EXPECT_EQ(m.errors()[0].where.file, "map.csv");
    EXPECT_EQ(m.errors()[0].where.line, 1);
    EXPECT_EQ(m.errors()[0].field, "map");
    EXPECT_NE(m.errors()[0].message.find("no port-map rows"), std::string::npos) << m.errors()[0].message;
  }
}

// diagnose --flows with a file of no flow said "no flows given (--flows)": refused at file:1:1.
TEST(FlowResults, AFlowsCsvWithNoRowIsRefused) {
  for (const char* text : {"", "src_ip,dst_ip,protocol,src_port,dst_port,bits_per_second\n"}) {
    const auto f = read_flows_csv(text, "flows.csv", fat_tree().topology());
    ASSERT_FALSE(f.ok()) << text;
    EXPECT_EQ(f.errors()[0].where.line, 1);
    EXPECT_EQ(f.errors()[0].field, "flows");
    EXPECT_NE(f.errors()[0].message.find("lists no flows"), std::string::npos) << f.errors()[0].message;
  }
}

TEST(CounterReader, ABlankBeforeTheLabelsIsAcceptedAsPrometheusDoes) {
  const auto s = read_prometheus_text("node_network_transmit_bytes_total {device=\"eth0\",instance=\"a\"} 5 1000\n", "x.prom", -1);
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  ASSERT_EQ(s->samples.size(), 1u);
  EXPECT_EQ(s->samples[0].device, "eth0");
  EXPECT_EQ(s->samples[0].instance, "a");
  EXPECT_EQ(s->samples[0].time_ms, 1000);
}

TEST(CounterReader, SeriesThatDifferOnlyInJobAreOneCounterOrAConflictNamingBothJobs) {
  const std::string a = "ifHCOutOctets{instance=\"sw\",ifName=\"swp1\",job=\"snmp\"} 5 1000\n";
  const auto same = read_prometheus_text(a + "ifHCOutOctets{instance=\"sw\",ifName=\"swp1\",job=\"federate\"} 5 1000\n", "x.prom", -1);
  ASSERT_TRUE(same.ok()) << format_diagnostics(same.errors());
  EXPECT_EQ(same->samples.size(), 1u);
  const auto differ = read_prometheus_text(a + "ifHCOutOctets{instance=\"sw\",ifName=\"swp1\",job=\"federate\"} 6 1000\n", "x.prom", -1);
  ASSERT_FALSE(differ.ok());
  EXPECT_EQ(differ.errors()[0].where.line, 2);
  EXPECT_NE(differ.errors()[0].message.find("jobs \"snmp\" (line 1) and \"federate\""), std::string::npos)
      << differ.errors()[0].message;
  const auto twice = read_prometheus_text(a + a, "x.prom", -1);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.errors()[0].message.find("duplicate series"), std::string::npos);
}

}  // namespace
}  // namespace ct
