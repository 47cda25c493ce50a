// Explicit flow files: what a valid file becomes, and that every mistake names file:line:column
// and the field. Fabric: fixtures::two_tier(2 leaves, 2 spines, 4 hosts per leaf), 8 single-NIC
// hosts; host h's port is vertex h with address 10.0.0.h (routing/port_address.h).
#include <gmock/gmock.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "fabric/name_directory.h"
#include "routing/port_address.h"
#include "support/fabric_fixtures.h"
#include "traffic/flow_file.h"

namespace ct {
namespace {

using ::testing::HasSubstr;

const NameDirectory& fabric() {
  static const Topology t = fixtures::two_tier(2, 2, 4);
  static const NameDirectory names(t);
  return names;
}

TEST(FlowFile, ReadsYamlByNameAndAddress) {
  const std::string text =
      "flows:\n"
      "  - {src: host0/nic0, dst: host5, src_port: 49152, size: 1GiB}\n"
      "  - {src: 10.0.0.1, dst: 10.0.0.6, protocol: tcp, src_port: 7, dst_port: 80, bursts: 4, idle_us: 250}\n";
  auto r = parse_flow_file("f.yaml", text, fabric());
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_EQ(r->size(), 2u);
  const Flow& a = r.value()[0];
  EXPECT_EQ(a.src, VertexId(0u));
  EXPECT_EQ(a.dst, VertexId(5u));
  EXPECT_EQ(a.key.src_ip, ipv4(10, 0, 0, 0));
  EXPECT_EQ(a.key.dst_ip, ipv4(10, 0, 0, 5));
  EXPECT_EQ(a.key.protocol, kIpProtoUdp);
  EXPECT_EQ(a.key.src_port, 49152);
  EXPECT_EQ(a.key.dst_port, kRoceV2UdpPort);
  EXPECT_EQ(a.size, Bytes(1073741824));
  EXPECT_EQ(a.label, "f.yaml:2");
  const Flow& b = r.value()[1];
  EXPECT_EQ(b.src, VertexId(1u));
  EXPECT_EQ(b.dst, VertexId(6u));
  EXPECT_EQ(b.key.protocol, kIpProtoTcp);
  EXPECT_EQ(b.key.dst_port, 80);
  EXPECT_EQ(b.bursts, 4);
  EXPECT_DOUBLE_EQ(b.idle_us, 250.0);
}

TEST(FlowFile, ReadsCsvWithColumnsInAnyOrder) {
  const std::string text =
      "# two flows\n"
      "src_port, dst ,src,size\n"
      "50000,host7,host1,64MB\n"
      "\n"
      "50001,host6,host2,100\n";
  auto r = parse_flow_file("f.csv", text, fabric());
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(r.value()[0].src, VertexId(1u));
  EXPECT_EQ(r.value()[0].dst, VertexId(7u));
  EXPECT_EQ(r.value()[0].size, Bytes(64'000'000));
  EXPECT_EQ(r.value()[1].key.src_port, 50001);
  EXPECT_EQ(r.value()[1].label, "f.csv:5");
}

// Cells may be quoted as in RFC 4180 (core/csv_cursor.h): the quoted text is the cell; a quote
// left open is an error at its line and column.
TEST(FlowFile, ReadsQuotedCsvCells) {
  auto r = parse_flow_file("q.csv", "src,\"dst\",src_port\n\"host1\",host7,\"50000\"\n", fabric());
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(r.value()[0].src, VertexId(1u));
  EXPECT_EQ(r.value()[0].dst, VertexId(7u));
  EXPECT_EQ(r.value()[0].key.src_port, 50000);
  auto open = parse_flow_file("o.csv", "src,dst,src_port\nhost1,\"host7,1\n", fabric());
  ASSERT_FALSE(open.ok());
  EXPECT_THAT(format_diagnostic(open.errors().front()), HasSubstr("o.csv:2:7: error: a quoted cell must end with '\"'"));
}

TEST(FlowFile, CsvErrorsNameLineColumnAndField) {
  const std::string text =
      "src,dst,src_port,size\n"
      "host0,host5,70000,1GB\n"   // line 2: port out of range at column 13
      "host0,host99,5,1GB\n"      // line 3: no such host at column 7
      "host0,host5,5,lots\n"      // line 4: bad size at column 15
      "host0,host5\n";            // line 5: wrong cell count
  auto r = parse_flow_file("bad.csv", text, fabric());
  ASSERT_FALSE(r.ok());
  const Diagnostics& e = r.errors();
  ASSERT_EQ(e.size(), 4u) << format_diagnostics(e);
  EXPECT_THAT(format_diagnostic(e[0]), HasSubstr("bad.csv:2:13: error: src_port: expected a port number 0..65535, got '70000'"));
  EXPECT_THAT(format_diagnostic(e[1]), HasSubstr("bad.csv:3:7: error: dst: 'host99' is no backend port"));
  EXPECT_THAT(format_diagnostic(e[2]), HasSubstr("bad.csv:4:15: error: size:"));
  EXPECT_THAT(format_diagnostic(e[3]), HasSubstr("bad.csv:5:1: error: expected 4 cells"));
}

TEST(FlowFile, CsvUnknownColumnSuggests) {
  auto r = parse_flow_file("c.csv", "src,dst,src_prt\nhost0,host5,1\n", fabric());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(format_diagnostic(r.errors()[0]), HasSubstr("c.csv:1:9: error: src_prt: unknown column (did you mean 'src_port'?)"));
}

TEST(FlowFile, YamlErrorsNameTheEntryField) {
  const std::string text =
      "flows:\n"
      "  - {src: host0, dst: host5}\n"                  // line 2: src_port missing
      "  - {src: host0, dst: host5, src_port: x1}\n"    // line 3: not a number
      "  - {src: host0, dst: host5, srcport: 1}\n";     // line 4: unknown field
  auto r = parse_flow_file("y.yaml", text, fabric());
  ASSERT_FALSE(r.ok());
  const Diagnostics& e = r.errors();
  ASSERT_EQ(e.size(), 3u) << format_diagnostics(e);
  EXPECT_THAT(format_diagnostic(e[0]), HasSubstr("y.yaml:2:5: error: flows[0].src_port: required field is missing"));
  EXPECT_THAT(format_diagnostic(e[1]), HasSubstr("y.yaml:3:40: error: flows[1].src_port: expected a port number"));
  EXPECT_THAT(format_diagnostic(e[2]), HasSubstr("y.yaml:4:30: error: flows[2].srcport: unknown field (did you mean 'src_port'?)"));
}

TEST(FlowFile, RejectsSamePortAndEmptyFiles) {
  auto same = parse_flow_file("s.csv", "src,dst,src_port\nhost3,10.0.0.3,1\n", fabric());
  ASSERT_FALSE(same.ok());
  EXPECT_THAT(same.errors()[0].message, HasSubstr("same port"));
  auto empty = parse_flow_file("e.yaml", "flows: []\n", fabric());
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.errors()[0].message, HasSubstr("no flows"));
}

// The YAML form goes through the project's reader (yaml/yaml_reader.h): a field written twice names
// the line of the first, `flows:` that is not a list says what it is, an alias bomb is refused
// before any flow is resolved, and a file without `flows:` says what is missing.
TEST(FlowFile, YamlStructureThroughTheSharedReader) {
  const std::string twice =
      "flows:\n"
      "  - src: host0\n"             // line 2
      "    dst: host5\n"
      "    src_port: 1\n"            // line 4
      "    src_port: 2\n";           // line 5: again
  auto r = parse_flow_file("t.yaml", twice, fabric());
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), 1u) << format_diagnostics(r.errors());
  EXPECT_THAT(format_diagnostic(r.errors()[0]),
              HasSubstr("t.yaml:5:5: error: flows[0].src_port: field written twice (first at line 4)"));

  auto scalar = parse_flow_file("s.yaml", "flows: 5\n", fabric());
  ASSERT_FALSE(scalar.ok());
  EXPECT_THAT(format_diagnostic(scalar.errors()[0]), HasSubstr("s.yaml:1:8: error: flows: expected a list of flows, got '5'"));

  auto missing = parse_flow_file("m.yaml", "flow:\n  - {src: host0, dst: host5, src_port: 1}\n", fabric());
  ASSERT_FALSE(missing.ok());
  ASSERT_EQ(missing.errors().size(), 2u) << format_diagnostics(missing.errors());
  EXPECT_THAT(format_diagnostic(missing.errors()[0]), HasSubstr("m.yaml:1:1: error: flow: unknown field (did you mean 'flows'?)"));
  EXPECT_THAT(missing.errors()[1].message, HasSubstr("missing: a list of flows under `flows:`"));

  // Ten aliases of ten aliases, six deep: 10^6 flows once expanded, past the reader's node bound.
  std::string bomb = "a0: &a0 [{src: host0, dst: host5, src_port: 1}]\n";
  for (int level = 1; level <= 6; ++level) {
    bomb += fmt::format("a{}: &a{} [", level, level);
    for (int k = 0; k < 10; ++k) bomb += fmt::format("{}*a{}", k == 0 ? "" : ", ", level - 1);
    bomb += "]\n";
  }
  bomb += "flows: *a6\n";
  auto refused = parse_flow_file("b.yaml", bomb, fabric());
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.errors()[0].message, HasSubstr("more than 1000000 YAML nodes"));
}

}  // namespace
}  // namespace ct
