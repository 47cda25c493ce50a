// The lab's JSON (report/lab_json.h) against the lab's plan and text outputs, on
// examples/lab/leaf-spine-4.yaml: a k = 8 two-tier fat tree, 8 leaves x 4 spines (one cable per
// pair) and 8 single-NIC hosts on leaves 0 and 1.
//
// Worked by hand from the spec and docs/models/lab.md (lab/lab_plan.h):
//   namespaces: one per backend switch (8 + 4 = 12) and one per NIC port (8): 20;
//   links: 8 x 4 leaf-spine cables + 8 host cables = 40, link L a /31 with 172.16.0.0 + 2L at its
//   lower end and + 1 at its upper end: link 0 is 172.16.0.0 / 172.16.0.1, link 5 172.16.0.10 / .11.
// Run: flow A sends 1,028,000 bytes in 0.5 s = 16,448,000 bit/s; flow B 1,000 bytes in 3 s =
// 2,666.67 bit/s, which the flows CSV rounds to 2667. Counters: the JSON's numbers are the
// Prometheus text's, read back from that text independently (a regex per sample line).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/loaders.h"
#include "report/lab_json.h"
#include "routing/port_address.h"
#include "support/shipped_catalog.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using nlohmann::json;

const Fabric& leaf_spine() {
  static const Fabric fabric = [] {
    const Catalog& catalog = testing_support::real_catalog();
    const ValidSpec spec = load_spec(ct::testing_support::source_dir() + "/examples/lab/leaf-spine-4.yaml", catalog).value();
    return build_fabric(spec, catalog).value();
  }();
  return fabric;
}

const LabPlan& plan() {
  static const LabPlan p = plan_lab(leaf_spine(), "ctj-").value();
  return p;
}

const Topology& topo() { return leaf_spine().topology(); }

TEST(LabJson, UpListsEveryNamespaceAndLinkOfThePlan) {
  const json j = json::parse(lab_up_json(plan(), leaf_spine().names()));
  EXPECT_EQ(j["command"], "up");
  EXPECT_EQ(j["prefix"], "ctj-");
  ASSERT_EQ(j["namespaces"].size(), 20U);
  std::size_t switches = 0;
  for (const json& ns : j["namespaces"]) {
    ASSERT_TRUE(ns["name"].is_string());
    EXPECT_EQ(ns["name"].get<std::string>().rfind("ctj-", 0), 0U) << ns;
    ASSERT_TRUE(ns["vertex"].is_string());
    ASSERT_TRUE(ns["sysctls"].is_array());
    switches += ns["kind"] == "switch";
    EXPECT_TRUE(ns["kind"] == "switch" || ns["kind"] == "port") << ns;
  }
  EXPECT_EQ(switches, 12U);
  ASSERT_EQ(j["links"].size(), 40U);
  std::map<std::uint32_t, json> by_id;
  for (const json& l : j["links"]) {
    ASSERT_TRUE(l["id"].is_number_unsigned()) << l;
    ASSERT_TRUE(l["link"].is_string()) << l;
    by_id[l["id"].get<std::uint32_t>()] = l;
  }
  ASSERT_EQ(by_id.count(0), 1U);
  EXPECT_EQ(by_id[0]["lower_address"], "172.16.0.0");
  EXPECT_EQ(by_id[0]["upper_address"], "172.16.0.1");
  ASSERT_EQ(by_id.count(5), 1U);
  EXPECT_EQ(by_id[5]["lower_address"], "172.16.0.10");
  EXPECT_EQ(by_id[5]["upper_address"], "172.16.0.11");
  EXPECT_EQ(by_id[5]["link"], topo().link_name(LinkId(5)));
  EXPECT_EQ(by_id[5]["device"], "l5");
}

LabFlowResult flow(std::uint32_t from_host, std::uint32_t to_host, std::uint16_t sport, std::uint64_t bytes,
                   double seconds) {
  const Topology& t = topo();
  LabFlowResult r;
  r.flow.src = t.port_of(HostId(from_host), 0, 0);
  r.flow.dst = t.port_of(HostId(to_host), 0, 0);
  r.flow.key.src_ip = port_address(t, r.flow.src);
  r.flow.key.dst_ip = port_address(t, r.flow.dst);
  r.flow.key.protocol = kIpProtoUdp;
  r.flow.key.src_port = sport;
  r.flow.key.dst_port = 9;
  r.bytes = bytes;
  r.seconds = seconds;
  r.bits_per_second = 8.0 * static_cast<double>(bytes) / seconds;
  return r;
}

TEST(LabJson, RunCarriesTheFlowsCsvNumbersUnrounded) {
  const std::vector<LabFlowResult> results{flow(0, 4, 49152, 1028000, 0.5), flow(1, 5, 49153, 1000, 3.0)};
  const json j = json::parse(lab_run_json(plan(), results, topo()));
  EXPECT_EQ(j["command"], "run");
  ASSERT_EQ(j["flows"].size(), 2U);
  const json& a = j["flows"][0];
  const json& b = j["flows"][1];
  EXPECT_EQ(a["src"], "host0/nic0");
  EXPECT_EQ(a["dst"], "host4/nic0");
  EXPECT_EQ(a["protocol"], "udp");
  EXPECT_EQ(a["src_port"], 49152);
  EXPECT_EQ(a["dst_port"], 9);
  ASSERT_TRUE(a["bytes"].is_number_unsigned());
  EXPECT_EQ(a["bytes"], 1028000U);
  ASSERT_TRUE(a["seconds"].is_number_float());
  EXPECT_DOUBLE_EQ(a["seconds"].get<double>(), 0.5);
  ASSERT_TRUE(a["bits_per_second"].is_number());
  EXPECT_DOUBLE_EQ(a["bits_per_second"].get<double>(), 16448000.0);
  EXPECT_NEAR(b["bits_per_second"].get<double>(), 2666.6667, 1e-3);
  // The CSV, row by row: same addresses, ports and (rounded) rate.
  std::istringstream csv(lab_flows_csv(results));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "src_ip,dst_ip,protocol,src_port,dst_port,bits_per_second");
  for (const json& f : j["flows"]) {
    ASSERT_TRUE(std::getline(csv, line));
    const std::regex row(R"(([0-9.]+),([0-9.]+),udp,([0-9]+),([0-9]+),([0-9]+))");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, row)) << line;
    EXPECT_EQ(m[1].str(), f["src_ip"].get<std::string>());
    EXPECT_EQ(m[2].str(), f["dst_ip"].get<std::string>());
    EXPECT_EQ(std::stoul(m[3].str()), f["src_port"].get<unsigned>());
    EXPECT_EQ(std::stoul(m[4].str()), f["dst_port"].get<unsigned>());
    EXPECT_LE(std::fabs(std::stod(m[5].str()) - f["bits_per_second"].get<double>()), 0.5) << line;
  }
  EXPECT_EQ(b["src_ip"], format_ipv4(port_address(topo(), topo().port_of(HostId(1), 0, 0))));
}

TEST(LabJson, CountersCarryThePrometheusTextsNumbers) {
  const std::vector<LabCounter> counters{{0, "l0", 1234, 5678, 1700000000123},
                                         {0, "l1", 0, 42, 1700000000123},
                                         {plan().namespaces.size() - 1, "l39", 18446744073709551615ULL, 7,
                                          1700000000999}};
  const json j = json::parse(lab_counters_json(plan(), counters, topo()));
  EXPECT_EQ(j["command"], "counters");
  ASSERT_EQ(j["counters"].size(), 3U);
  const std::string text = lab_counters_text(plan(), counters, topo());
  // node_network_{transmit,receive}_bytes_total{device="D",instance="I"} VALUE TIME
  const std::regex sample(R"re(node_network_(transmit|receive)_bytes_total\{device="([^"]+)",instance="([^"]+)"\} ([0-9]+) ([0-9]+))re");
  std::size_t samples = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), sample); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    bool found = false;
    for (const json& c : j["counters"]) {
      if (c["device"] != m[2].str() || c["instance"] != m[3].str()) continue;
      found = true;
      ASSERT_TRUE(c[m[1].str() + "_bytes"].is_number_unsigned()) << c;
      EXPECT_EQ(c[m[1].str() + "_bytes"].get<std::uint64_t>(), std::stoull(m[4].str())) << m[0];
      EXPECT_EQ(c["time_ms"].get<std::int64_t>(), std::stoll(m[5].str())) << m[0];
    }
    EXPECT_TRUE(found) << m[0];
    ++samples;
  }
  EXPECT_EQ(samples, 6U);
  EXPECT_EQ(j["counters"][2]["transmit_bytes"].get<std::uint64_t>(), 18446744073709551615ULL);
  EXPECT_EQ(j["counters"][0]["namespace"], plan().namespaces[0].name);
}

TEST(LabJson, FailAndDownNameWhatTheyTouched) {
  const json f = json::parse(lab_fail_json(plan(), {LinkId(5)}, leaf_spine().names()));
  EXPECT_EQ(f["command"], "fail");
  ASSERT_EQ(f["failed"].size(), 1U);
  EXPECT_EQ(f["failed"][0]["id"], 5);
  EXPECT_EQ(f["failed"][0]["link"], leaf_spine().names().cable_name(LinkId(5)));
  const json d = json::parse(lab_down_json("ctj-", {"ctj-h12", "ctj-s0"}));
  EXPECT_EQ(d["command"], "down");
  EXPECT_EQ(d["prefix"], "ctj-");
  EXPECT_EQ(d["removed"], json::array({"ctj-h12", "ctj-s0"}));
  EXPECT_EQ(json::parse(lab_down_json("ctj-", {}))["removed"], json::array());
}

}  // namespace
}  // namespace ct
