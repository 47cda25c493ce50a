// The readers of switch and NIC counters, LLDP neighbours and perftest results, on fixtures in
// the tools' exact shapes (tests/golden/diagnose/), each with its bad inputs.
//
// ethtool -S (ethtool-host0-t{0,1}.txt, mlx5 statistic names, 10 s apart): the RDMA counter
//   tx_vport_rdma_unicast_bytes moves 50,000,000,000 bytes = 40 Gb/s, the netdev tx_bytes
//   12,500,000 bytes = 10 Mb/s (RoCE bypasses the kernel), the port tx_bytes_phy 50,012,900,000.
// gNMI (gnmi-leaf0.json, a gnmic subscribe stream): Ethernet8 out-octets 1e9 -> 126e9 in 10 s =
//   125e9 bytes = 100 Gb/s; Ethernet12 (JSON_IETF strings) 5e6 -> 5e6 = 0.
// LLDP (lldp-leaf0.json, lldp-spine0.json): real `lldpctl -f json` output of lldpd 1.0.16 run in
//   three network namespaces, veth swp1/swp2 of p0/pod0/leaf/0 to swp1 of p0/pod0/spine/0 and
//   p0/pod0/spine/1, system names set with `lldpcli configure system hostname`: the leaf's file
//   has two neighbours (lldpctl prints an array), the spine's one (an object).
// perftest (perftest-write.txt, ib_write_bw -q 2 --report_gbits): BW average 96.88 Gb/s over two
//   QPs -> two flows of 48.44 Gb/s from 10.0.0.0 to 10.0.0.4. RoCEv2 source port of QPN pair
//   (0x108, 0x109), by hand: 264 x 265 = 69960 = 0x11148; >> 20 and >> 40 are 0; fl = 0x11148;
//   (fl & 0x3FFF) ^ (fl >> 14) = 0x1148 ^ 0x4 = 0x114C; | 0xC000 = 0xD14C = 53580. For
//   (0xFFFFFF, 0xFFFFFF): v = 0xFFFFFE000001, v ^= v >> 20 (0xFFFFFE0) = 0xFFFFF1FFFFE1, v ^= v >> 40
//   (0xFF) = 0xFFFFF1FFFF1E, fl = 0xFFF1E, 0x3F1E ^ 0x3F = 0x3F21 -> 0xFF21 = 65313.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "diagnose/counter_inputs.h"
#include "diagnose/ethtool_reader.h"
#include "diagnose/gnmi_reader.h"
#include "io/loaders.h"
#include "routing/port_address.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/fixture_fabric.h"
#include "support/test_paths.h"

namespace ct {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(ct::testing_support::source_dir() + "/tests/golden/diagnose/" + name);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

const Fabric& fat_tree() { return fixtures::lab_fat_tree_4(); }

const CounterSample* find(const Scrape& s, const std::string& device, CounterKind kind, bool tx) {
  for (const CounterSample& c : s.samples) {
    if (c.device == device && c.kind == kind && c.transmit == tx) return &c;
  }
  return nullptr;
}

void expect_error(const Diagnostics& e, int line, const std::string& field, const std::string& words) {
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].where.line, line) << e[0].message;
  EXPECT_EQ(e[0].field, field) << e[0].message;
  EXPECT_NE(e[0].message.find(words), std::string::npos) << e[0].message;
}

// ---- ethtool -S ----

TEST(EthtoolReader, ReadsNetdevRdmaAndPortCountersOfMlx5) {
  const auto s = read_ethtool_stats(fixture("ethtool-host0-t0.txt"), "t0.txt", "host0/nic0", "l0", 0);
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  ASSERT_EQ(s->samples.size(), 6u);  // tx/rx of netdev, rdma, phy; the rings are ignored (tx_bytes given)
  const CounterSample* rdma = find(s.value(), "l0", CounterKind::kRdma, true);
  ASSERT_NE(rdma, nullptr);
  EXPECT_EQ(rdma->count, 300648554496u);
  EXPECT_EQ(rdma->where.line, 16);
  EXPECT_EQ(find(s.value(), "l0", CounterKind::kPhy, false)->count, 301172103511u);
  EXPECT_EQ(find(s.value(), "l0", CounterKind::kNetdev, true)->count, 180011223u);
  EXPECT_EQ(rdma->instance, "host0/nic0");
}

TEST(EthtoolReader, RingsAreSummedWhenTheDriverGivesNoTotal) {
  const auto s = read_ethtool_stats("NIC statistics:\n     tx0_bytes: 5\n     tx1_bytes: 7\n     tx_queue_2_bytes: 1\n"
                                    "     rx0_bytes: 4\n     tx_prio3_bytes: 99\n",
                                    "q.txt", "h", "eth0", 0);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->samples.size(), 2u);
  EXPECT_EQ(find(s.value(), "eth0", CounterKind::kNetdev, true)->count, 13u);  // 5 + 7 + 1; prio ignored
  EXPECT_EQ(find(s.value(), "eth0", CounterKind::kNetdev, false)->count, 4u);
}

TEST(EthtoolReader, TwoFilesTenSecondsApartGiveTheRdmaRateTheNetdevCounterMisses) {
  CounterInputs in;
  in.scrapes = {{"t0.txt", fixture("ethtool-host0-t0.txt")}, {"t1.txt", fixture("ethtool-host0-t1.txt")}};
  in.instances = {"host0/nic0,l0", "host0/nic0,l0"};
  in.interval_s = 10;
  const auto c = read_counter_inputs(in, fat_tree());
  ASSERT_TRUE(c.ok()) << format_diagnostics(c.errors());
  double rdma = -1, netdev = -1, phy = -1;
  for (const SeriesRate& r : c->rates.series) {
    if (!r.transmit) continue;
    (r.kind == CounterKind::kRdma ? rdma : r.kind == CounterKind::kPhy ? phy : netdev) = r.bytes_per_second * 8;
  }
  EXPECT_DOUBLE_EQ(rdma, 40e9);
  EXPECT_DOUBLE_EQ(netdev, 10e6);
  EXPECT_DOUBLE_EQ(phy, 50012900000.0 * 8 / 10);
}

TEST(EthtoolReader, BadInputIsLocated) {
  expect_error(read_ethtool_stats("     tx_bytes: 5\n", "f", "h", "d", 0).errors(), 1, "header", "NIC statistics:");
  expect_error(read_ethtool_stats("", "f", "h", "d", 0).errors(), 1, "header", "empty");
  // The header alone, or only statistics that are not bytes: no counter to take a rate of.
  expect_error(read_ethtool_stats("NIC statistics:\n", "f", "h", "d", 0).errors(), 1, "statistic", "no byte counter");
  expect_error(read_ethtool_stats("NIC statistics:\n     rx_packets: 5\n", "f", "h", "d", 0).errors(), 1, "statistic",
               "no byte counter");
  expect_error(read_ethtool_stats("NIC statistics:\n     tx_bytes: 12x\n", "f", "h", "d", 0).errors(), 2, "tx_bytes",
               "not an unsigned 64-bit count");
  expect_error(read_ethtool_stats("NIC statistics:\n     tx_bytes: -3\n", "f", "h", "d", 0).errors(), 2, "tx_bytes",
               "not an unsigned");
  expect_error(read_ethtool_stats("NIC statistics:\n     tx_bytes: 18446744073709551616\n", "f", "h", "d", 0).errors(), 2,
               "tx_bytes", "not an unsigned");
  expect_error(read_ethtool_stats("NIC statistics:\n     tx_bytes: 1\n     tx_byt", "f", "h", "d", 0).errors(), 3,
               "statistic", "expected 'name: value'");
  expect_error(read_ethtool_stats("NIC statistics:\n     tx_bytes: 1\n     tx_bytes: 2\n", "f", "h", "d", 0).errors(), 3,
               "tx_bytes", "first at line 2");
  const auto e = read_ethtool_stats("NIC statistics:\n     tx_bytes: 1x\n", "f", "h", "d", 0).errors();
  EXPECT_EQ(e[0].where.column, 16);  // the value, after "     tx_bytes: "
}

TEST(EthtoolReader, TheCommandLineMustNameHostAndInterface) {
  CounterInputs in;
  in.scrapes = {{"t0.txt", fixture("ethtool-host0-t0.txt")}, {"t1.txt", fixture("ethtool-host0-t1.txt")}};
  in.instances = {"host0/nic0", "host0/nic0"};
  in.interval_s = 10;
  const auto c = read_counter_inputs(in, fat_tree());
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.errors()[0].message.find("INSTANCE,DEVICE=FILE"), std::string::npos);
}

// ---- gNMI ----

TEST(GnmiReader, ASubscribeStreamIsAWholeSeries) {
  const auto s = read_gnmi_json(fixture("gnmi-leaf0.json"), "gnmi.json");
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  ASSERT_EQ(s->samples.size(), 6u);
  EXPECT_EQ(s->samples[0].device, "Ethernet8");
  EXPECT_EQ(s->samples[0].instance, "p0/pod0/leaf/0");
  EXPECT_EQ(s->samples[0].time_ms, 1764770400000);
  EXPECT_EQ(s->samples[2].count, 5000000u);  // a JSON_IETF string
  EXPECT_EQ(s->samples[3].where.line, 37);   // the third notification's opening brace
  EXPECT_EQ(s->samples[3].time_ms, 1764770410000);

  CounterInputs in;
  in.scrapes = {{"gnmi.json", fixture("gnmi-leaf0.json")}};
  in.map = TextInput{"leaf0-map.csv", fixture("leaf0-map.csv")};
  const auto c = read_counter_inputs(in, fat_tree());
  ASSERT_TRUE(c.ok()) << format_diagnostics(c.errors());
  for (const SeriesRate& r : c->rates.series) {
    if (r.transmit) {
      EXPECT_DOUBLE_EQ(r.bytes_per_second * 8, r.device == "Ethernet8" ? 100e9 : 0.0) << r.device;
    }
  }
}

TEST(GnmiReader, AGetArrayWithTheCountersContainer) {
  const std::string get = R"([
  {
    "source": "leaf0:57400",
    "timestamp": 1607525839054349000,
    "time": "2020-12-09T14:57:19.054349Z",
    "updates": [
      {
        "Path": "openconfig-interfaces:interfaces/interface[name=Ethernet1/1]/state/counters",
        "values": {
          "interfaces/interface/state/counters": {
            "openconfig-interfaces:in-octets": "77",
            "openconfig-interfaces:out-octets": "18446744073709551615",
            "openconfig-interfaces:in-pkts": "3"
          }
        }
      },
      {
        "Path": "interfaces/interface[name=Ethernet1/1]/subinterfaces/subinterface[index=0]/state/counters/out-octets",
        "values": {"interfaces/interface/subinterfaces/subinterface/state/counters/out-octets": 5}
      }
    ]
  }
])";
  const auto s = read_gnmi_json(get, "get.json");
  ASSERT_TRUE(s.ok()) << format_diagnostics(s.errors());
  ASSERT_EQ(s->samples.size(), 2u);  // in and out; in-pkts and the subinterface are not read
  EXPECT_EQ(s->samples[0].device, "Ethernet1/1");
  EXPECT_EQ(find(s.value(), "Ethernet1/1", CounterKind::kSwitch, true)->count, 18446744073709551615u);
  EXPECT_EQ(s->samples[0].time_ms, 1607525839054);
}

TEST(GnmiReader, BadInputIsLocated) {
  const std::string head = R"({"source": "a", "timestamp": 5000000, "updates": [{"Path": "interfaces/interface[name=e1]/state/counters/out-octets", "values": {"out-octets": )";
  expect_error(read_gnmi_json(head + "\"12ab\"}}]}", "f").errors(), 1, "out-octets", "not a counter64");
  expect_error(read_gnmi_json(head + "-1}}]}", "f").errors(), 1, "out-octets", "not a counter64");
  expect_error(read_gnmi_json(head + "1.5}}]}", "f").errors(), 1, "out-octets", "not a counter64");
  expect_error(read_gnmi_json(head + "18446744073709551616}}]}", "f").errors(), 1, "out-octets", "not a counter64");
  expect_error(read_gnmi_json("{\"source\": \"a\", \"timestamp\": 5, \"updates\": []}\n{\"source\": \"a\", \"updates\"", "f").errors(),
               2, "gnmi", "truncated");
  expect_error(read_gnmi_json("\n{\"source\": \"a\", \"updates\": []}", "f").errors(), 2, "timestamp", "missing");
  expect_error(read_gnmi_json("{\"timestamp\": 5, \"updates\": []}", "f").errors(), 1, "source", "missing");
  expect_error(read_gnmi_json("  ", "f").errors(), 1, "gnmi", "empty");
  // Notifications with no interface counter (deletes only, other paths): a series of nothing.
  expect_error(read_gnmi_json("{\"source\": \"a\", \"timestamp\": 5, \"updates\": []}", "f").errors(), 1, "updates",
               "no interface counter");
}

// ---- LLDP ----

TEST(LldpPortMap, RealLldpctlOutputMapsEachInterfaceToItsCable) {
  const Fabric& f = fat_tree();
  const Topology& t = f.topology();
  PortMap map;
  const auto leaf = read_lldp_neighbours(fixture("lldp-leaf0.json"), "lldp-leaf0.json", "p0/pod0/leaf/0", "p0/pod0/leaf/0",
                                         f.names(), map);
  ASSERT_TRUE(leaf.ok()) << format_diagnostics(leaf.errors());
  EXPECT_EQ(leaf.value(), 2u);
  const MappedPort* swp1 = map.find("p0/pod0/leaf/0", "swp1");
  const MappedPort* swp2 = map.find("p0/pod0/leaf/0", "swp2");
  ASSERT_NE(swp1, nullptr);
  ASSERT_NE(swp2, nullptr);
  EXPECT_EQ(t.link_name(swp1->link), "p0/pod0/leaf/0 -- p0/pod0/spine/0");
  EXPECT_EQ(t.link_name(swp2->link), "p0/pod0/leaf/0 -- p0/pod0/spine/1");
  EXPECT_EQ(t.vertex_name(swp1->vertex), "p0/pod0/leaf/0");
  EXPECT_EQ(swp2->where.line, 54);  // "swp2": { in the file
  // The spine's file holds one neighbour: lldpctl prints an object, not an array.
  const auto spine = read_lldp_neighbours(fixture("lldp-spine0.json"), "lldp-spine0.json", "sp0", "p0/pod0/spine/0",
                                          f.names(), map);
  ASSERT_TRUE(spine.ok()) << format_diagnostics(spine.errors());
  EXPECT_EQ(t.link_name(map.find("sp0", "swp1")->link), "p0/pod0/leaf/0 -- p0/pod0/spine/0");
  EXPECT_EQ(t.vertex_name(map.find("sp0", "swp1")->vertex), "p0/pod0/spine/0");
  // Read again: every interface is mapped twice.
  const auto twice = read_lldp_neighbours(fixture("lldp-spine0.json"), "x.json", "sp0", "p0/pod0/spine/0", f.names(), map);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.errors()[0].message.find("mapped twice"), std::string::npos);
}

TEST(LldpPortMap, BadInputIsLocated) {
  const Fabric& f = fat_tree();
  PortMap map;
  const std::string real = fixture("lldp-leaf0.json");
  expect_error(read_lldp_neighbours(real.substr(0, real.size() / 2), "f", "i", "p0/pod0/leaf/0", f.names(), map).errors(), 1,
               "lldp", "not lldpctl");
  expect_error(read_lldp_neighbours("{\"neighbours\": {}}", "f", "i", "p0/pod0/leaf/0", f.names(), map).errors(), 1, "lldp",
               "missing");
  const std::string typo = "{\"lldp\": {\"interface\": {\n\"swp1\": {\"chassis\": {\"p0/pod0/spien/0\": {\"id\": {}}}}}}}";
  const auto e = read_lldp_neighbours(typo, "f", "i", "p0/pod0/leaf/0", f.names(), map).errors();
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].where.line, 2);
  EXPECT_NE(e[0].message.find("p0/pod0/spine/0"), std::string::npos) << e[0].message;  // did you mean
  const std::string no_name = "{\"lldp\": {\"interface\": {\"swp1\": {\"chassis\": {\"id\": {\"type\": \"mac\", \"value\": \"aa\"}}}}}}";
  expect_error(read_lldp_neighbours(no_name, "f", "i", "p0/pod0/leaf/0", f.names(), map).errors(), 1, "chassis",
               "no system name");
  const std::string far = "{\"lldp\": {\"interface\": {\"swp1\": {\"chassis\": {\"p0/core/0\": {}}}}}}";
  expect_error(read_lldp_neighbours(far, "f", "i", "p0/pod0/leaf/0", f.names(), map).errors(), 1, "chassis", "no cable joins");
  EXPECT_EQ(map.size(), 0u);
}

// ---- perftest ----

TEST(PerftestResults, KnownSourcePorts) {
  EXPECT_EQ(roce_udp_source_port(0x108, 0x109), 53580);
  EXPECT_EQ(roce_udp_source_port(0xFFFFFF, 0xFFFFFF), 65313);
}

TEST(PerftestResults, TwoQpsAreTwoFlowsSharingTheAverage) {
  const Topology& t = fat_tree().topology();
  const auto r = read_perftest(fixture("perftest-write.txt"), "pt.txt", t);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_DOUBLE_EQ(r.value()[0].bits_per_second, 96.88e9 / 2);
  EXPECT_EQ(format_ipv4(r.value()[0].key.src_ip), "10.0.0.0");
  EXPECT_EQ(format_ipv4(r.value()[0].key.dst_ip), "10.0.0.4");
  EXPECT_EQ(r.value()[0].key.src_port, 53580);
  EXPECT_EQ(r.value()[0].key.dst_port, 4791);
  EXPECT_EQ(r.value()[1].key.src_port, roce_udp_source_port(0x10a, 0x10b));
  EXPECT_EQ(r.value()[0].where.line, 27);
}

TEST(PerftestResults, MegabytesAreMebibytesAndReadsFlowBack) {
  const Topology& t = fat_tree().topology();
  const std::string text =
      "                    RDMA_Read BW Test\n"
      " local address: LID 0000 QPN 0x0108 PSN 0x5a5f2f RKey 0x1fffbd VAddr 0x007f8b8c5ec000\n"
      " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:00\n"
      " remote address: LID 0000 QPN 0x0109 PSN 0x8e2c1a RKey 0x203eaf VAddr 0x007f2d3e1b0000\n"
      " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:04\n"
      " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
      "Conflicting CPU frequency values detected: 1500.000000 != 3300.016000. CPU Frequency is not max.\n"
      " 65536      5000             11715.16            11714.90		   0.187438\n";
  const auto r = read_perftest(text, "read.txt", t);
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_NEAR(r.value()[0].bits_per_second, 98271703859.2, 1e-3);  // 11714.90 x 8 x 1048576
  EXPECT_EQ(format_ipv4(r.value()[0].key.src_ip), "10.0.0.4");     // a read: the remote side sends
}

TEST(PerftestResults, BadInputIsLocated) {
  const Topology& t = fat_tree().topology();
  const std::string good = fixture("perftest-write.txt");
  expect_error(read_perftest(good.substr(0, good.find(" #bytes")), "f", t).errors(), 1, "#bytes", "no perftest result header");
  expect_error(read_perftest(good.substr(0, good.find(" 65536")), "f", t).errors(), 26, "BW average", "did not finish");
  std::string bad = good;
  bad.replace(bad.find("96.88"), 5, "9x.88");
  expect_error(read_perftest(bad, "f", t).errors(), 27, "BW average", "BW average >= 0");
  bad = good;
  bad.replace(bad.find("0x0108"), 6, "0x1000000");
  expect_error(read_perftest(bad, "f", t).errors(), 17, "QPN", "24-bit");
  bad = good;
  bad.replace(bad.find("00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:04"), 49,
              "254:128:00:00:00:00:00:00:02:02:201:255:254:01:02:03");
  expect_error(read_perftest(bad, "f", t).errors(), 22, "GID", "not an IPv4-mapped");
  bad = good;
  bad.replace(bad.find("255:255:10:00:00:00"), 19, "255:255:10:00:00:300");
  expect_error(read_perftest(bad, "f", t).errors(), 18, "GID", "0..255");
  bad = good;
  bad.replace(bad.find("255:255:10:00:00:04"), 19, "255:255:192:0:2:1");
  expect_error(read_perftest(bad, "f", t).errors(), 21, "GID", "no backend port");
}

}  // namespace
}  // namespace ct
