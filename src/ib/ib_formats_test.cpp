// Formats: ibnetdiscover / ibsim net files, LFT dumps, LID assignment, Topology conversion.
#include <gtest/gtest.h>

#include "ib/fabric_edits.h"
#include "ib/fat_tree_fabric.h"
#include "ib/ib_checks.h"
#include "ib/ib_ranking.h"
#include "ib/subnet_manager.h"
#include "ib/switch_graph.h"
#include "ib/ibnetdiscover.h"
#include "ib/lft_dump.h"
#include "ib/topology_to_ib.h"
#include "support/ib_fixtures.h"

namespace ct {
namespace {

// Two leaves x two spines, two hosts per leaf (tests/support/ib_fixtures.h); the tab-separated
// form ibsim's examples use is read by tests/ib (bad/good_2x2.net and its variants).
constexpr const char* kTwoByTwo = fixtures::kIbTwoByTwo;

IbFabric parse_ok(std::string_view text) {
  auto parsed = parse_ibnetdiscover(text, "test.net");
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : format_diagnostics(parsed.errors()));
  return parsed.ok() ? std::move(parsed).value() : IbFabric{};
}

// The first error's line and whether its message contains `words`.
void expect_error(std::string_view text, int line, const std::string& words, const std::string& field) {
  auto parsed = parse_ibnetdiscover(text, "bad.net");
  ASSERT_FALSE(parsed.ok());
  const Diagnostic& d = parsed.errors().front();
  EXPECT_EQ(d.where.file, "bad.net");
  EXPECT_EQ(d.where.line, line) << d.message;
  EXPECT_NE(d.message.find(words), std::string::npos) << d.message;
  EXPECT_EQ(d.field, field) << d.message;
}

TEST(Ibnetdiscover, ParsesIbsimStyleNetFileWithIbsimGuids) {
  // ibsim numbers switches from 0x200000 (one GUID each) and CAs from 0x100000 (ports + 1 each).
  const IbFabric f = parse_ok(kTwoByTwo);
  ASSERT_EQ(f.node_count(), 8U);
  EXPECT_EQ(f.switch_count(), 4U);
  EXPECT_EQ(f.cable_count(), 8U);
  EXPECT_EQ(f.guid[0], 0x200000U);
  EXPECT_EQ(f.guid[3], 0x200003U);
  EXPECT_EQ(f.guid[4], 0x100000U);
  EXPECT_EQ(f.guid[5], 0x100002U);
  EXPECT_EQ(f.port_guid(IbNodeId(5), 1), 0x100003U);
  EXPECT_EQ(f.description[2], "spine1");
  const IbPortRef far = f.remote(IbNodeId(1), 3);  // L2 port 3 -> S1 port 2
  EXPECT_EQ(far.node, IbNodeId(2));
  EXPECT_EQ(far.port, 2);
}

TEST(Ibnetdiscover, ParsesRealIbnetdiscoverOutput) {
  // The shape infiniband-diags prints: GUID lines, port GUIDs, lid/width comments, [ext] ports.
  const char* text = R"(#
# Topology file: generated on Tue Mar  1 10:00:00 2022
#
vendid=0x2c9
devid=0xcf08
sysimgguid=0x2c90200000001
switchguid=0x2c90200000001(2c90200000001)
Switch	36 "S-0002c90200000001"		# "MF0;sw1:MQM8700/U1" enhanced port 0 lid 1 lmc 0
[1]	"H-0002c90300000010"[1](2c90300000011) 		# "node1 mlx5_0" lid 3 4xHDR
[2][ext 2]	"H-0002c90300000020"[1](2c90300000021) 		# "node2 mlx5_0" lid 4 4xHDR

vendid=0x2c9
devid=0x101b
sysimgguid=0x2c90300000013
caguid=0x2c90300000010
Ca	1 "H-0002c90300000010"		# "node1 mlx5_0"
[1](2c90300000011) 	"S-0002c90200000001"[1]		# lid 3 lmc 0 "MF0;sw1:MQM8700/U1" lid 1 4xHDR

caguid=0x2c90300000020
Ca	1 "H-0002c90300000020"		# "node2 mlx5_0"
[1](2c90300000021) 	"S-0002c90200000001"[2]		# lid 4 lmc 0 "MF0;sw1:MQM8700/U1" lid 1 4xHDR
)";
  const IbFabric f = parse_ok(text);
  ASSERT_EQ(f.node_count(), 3U);
  EXPECT_EQ(f.guid[0], 0x2c90200000001U);
  EXPECT_EQ(f.ports(IbNodeId(0)), 36);
  EXPECT_EQ(f.description[0], "MF0;sw1:MQM8700/U1");
  EXPECT_EQ(f.guid[2], 0x2c90300000020U);
  EXPECT_EQ(f.port_guid(IbNodeId(1), 1), 0x2c90300000011U);
  EXPECT_EQ(f.remote(IbNodeId(0), 2).node, IbNodeId(2));
}

TEST(Ibnetdiscover, WriteThenParseGivesTheSameFabric) {
  const IbFabric f = parse_ok(kTwoByTwo);
  const IbFabric g = parse_ok(write_ibnetdiscover(f, nullptr));
  ASSERT_EQ(g.node_count(), f.node_count());
  // The writer puts switches first; here they already are, so node order is kept.
  for (std::size_t i = 0; i < f.node_count(); ++i) {
    const IbNodeId n(i);
    EXPECT_EQ(g.guid[i], f.guid[i]);
    EXPECT_EQ(g.name[i], f.name[i]);
    EXPECT_EQ(g.description[i], f.description[i]);
    ASSERT_EQ(g.ports(n), f.ports(n));
    for (int p = 1; p <= f.ports(n); ++p) {
      EXPECT_EQ(g.remote(n, p).node, f.remote(n, p).node);
      EXPECT_EQ(g.remote(n, p).port, f.remote(n, p).port);
      EXPECT_EQ(g.port_guid(n, p), f.port_guid(n, p));
    }
  }
}

TEST(Ibnetdiscover, WriterAddsLidsOnlyWhenGiven) {
  const IbFabric f = parse_ok(kTwoByTwo);
  EXPECT_EQ(write_ibnetdiscover(f, nullptr).find(" lid "), std::string::npos);
  auto lids = assign_lids(f, 0);
  ASSERT_TRUE(lids.ok());
  const std::string text = write_ibnetdiscover(f, &lids.value());
  EXPECT_NE(text.find("\"leaf1\" base port 0 lid 5 lmc 0"), std::string::npos) << text;
  EXPECT_NE(text.find("# lid 1 lmc 0 \"leaf1\" lid 5"), std::string::npos) << text;
}

TEST(Ibnetdiscover, ErrorsNameTheLine) {
  expect_error("Switch 4 \"L1\n[1] \"H1\"[1]\n", 1, "quoted node id", "node.id");
  expect_error("Switch x \"L1\"\n", 1, "port count", "node.ports");
  expect_error("Switch 300 \"L1\"\n", 1, "port count", "node.ports");
  expect_error("[1] \"H1\"[1]\n", 1, "outside a Switch or Ca block", "port");
  expect_error("Switch 2 \"L1\"\n[3] \"H1\"[1]\n", 2, "out of range", "port.number");
  expect_error("Switch 2 \"L1\"\n[1] \"H1\"[1]\n[1] \"H2\"[1]\n", 3, "already described on line 2", "port.number");
  expect_error("Switch 2 \"L1\"\n[1] H1[1]\n", 2, "quoted id of the remote node", "port.remote_node");
  expect_error("Switch 2 \"L1\"\n[1] \"H1\"[x]\n", 2, "remote port number", "port.remote_port");
  expect_error("Rt 2 \"R1\"\n", 1, "router", "node.type");
  expect_error("# nothing here\n\n", 2, "no Switch or Ca", "file");
  expect_error("Switch 2 \"L1\"\n\nSwitch 2 \"L1\"\n", 3, "already defined on line 1", "node.id");
  expect_error("switchguid=0x5\nSwitch 2 \"A\"\n\nswitchguid=0x5\nSwitch 2 \"B\"\n", 5, "GUID 0x0000000000000005 already used",
               "node.guid");
}

TEST(Ibnetdiscover, TruncatedOrOneSidedFilesAreErrors) {
  // The file stops before H1's block: the switch's port line names a node never defined.
  expect_error("Switch 2 \"L1\"\n[1] \"H1\"[1]\n", 2, "never defined", "port.remote_node");
  // Both nodes exist but the CA does not describe the cable back.
  expect_error("Switch 2 \"L1\"\n[1] \"H1\"[1]\n\nCa 1 \"H1\"\n", 2, "not described as cabled back", "port.remote_port");
  // Described back to another port.
  expect_error("Switch 2 \"L1\"\n[1] \"H1\"[1]\n\nCa 1 \"H1\"\n[1] \"L1\"[2]\n", 2, "not described as cabled back",
               "port.remote_port");
}

TEST(LidAssignment, LmcAlignsEachCaPortBlockInPortGuidOrder) {
  // Port GUID order: H1..H4 (0x100001, 0x100003, ...) before the switches (0x200000..). With LMC 2
  // each CA port takes a block of 4 aligned to 4: 4, 8, 12, 16 (LIDs 1-3 stay free); then the
  // switches one LID each: L1 20, L2 21, S1 22, S2 23.
  const IbFabric f = parse_ok(kTwoByTwo);
  auto lids = assign_lids(f, 2);
  ASSERT_TRUE(lids.ok());
  EXPECT_EQ(lids->base_lid(IbNodeId(4), 1), 4);
  EXPECT_EQ(lids->base_lid(IbNodeId(7), 1), 16);
  EXPECT_EQ(lids->base_lid(IbNodeId(0), 0), 20);
  EXPECT_EQ(lids->base_lid(IbNodeId(3), 0), 23);
  EXPECT_EQ(lids->max_lid(), 23U);
  EXPECT_EQ(lids->owner_node[19], IbNodeId(7));
  EXPECT_FALSE(lids->owner_node[2].valid());  // alignment gap
}

TEST(LftDump, WriteParseAndRebuildRoundTrip) {
  const IbFabric f = parse_ok(kTwoByTwo);
  auto routing = route_fabric(f, {IbEngine::kMinHop, 1, {}, {}, 1});
  ASSERT_TRUE(routing.ok());
  const std::string text = write_lft_dump(f, routing.value());
  EXPECT_NE(text.find("Unicast lids [0x0-0x"), std::string::npos);
  EXPECT_NE(text.find(": (Channel Adapter portguid 0x0000000000100001: 'host1')"), std::string::npos) << text;
  auto dump = parse_lft_dump(text, "x.dump");
  ASSERT_TRUE(dump.ok()) << format_diagnostics(dump.errors());
  auto rebuilt = routing_from_lft_dump(f, dump.value(), "x.dump");
  ASSERT_TRUE(rebuilt.ok()) << format_diagnostics(rebuilt.errors());
  EXPECT_EQ(rebuilt->lids.lmc, 1);
  for (std::uint32_t s = 0; s < 4; ++s) {
    for (std::uint32_t lid = 1; lid <= routing->lids.max_lid(); ++lid) {
      EXPECT_EQ(rebuilt->port(s, lid), routing->port(s, lid)) << "switch " << s << " lid " << lid;
    }
  }
}

TEST(LftDump, ReadsOpenSmDumpFormat) {
  const char* text = R"(Unicast lids [0-6] of switch Lid 1 guid 0x0000000000200000 ('Switch1'):
0x0001 000 # Switch portguid 0x0000000000200000: 'Switch1'
0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'Hca1'
0x0003 003 # Switch portguid 0x0000000000200001: 'Switch2'
3 lids dumped
Unicast lids [0-6] of switch Lid 3 guid 0x0000000000200001 ('Switch2'):
0x0002 003 # Channel Adapter portguid 0x0000000000100001: 'Hca1'
1 lids dumped
)";
  auto dump = parse_lft_dump(text, "opensm-lfts.dump");
  ASSERT_TRUE(dump.ok());
  ASSERT_EQ(dump->size(), 2U);
  EXPECT_EQ(dump.value()[1].guid, 0x200001U);
  ASSERT_EQ(dump.value()[0].entries.size(), 3U);
  EXPECT_EQ(dump.value()[0].entries[1].lid, 2U);
  EXPECT_EQ(dump.value()[0].entries[1].port, 1);
  EXPECT_EQ(dump.value()[0].entries[1].dest_port_guid, 0x100001U);
  auto bad = parse_lft_dump("0x0001 001 # x\n", "x");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors()[0].where.line, 1);
}

TEST(TopologyToIb, PortsFollowAdjacencyOrderAndGuidsFollowVertexIds) {
  // host0/nic0 and host1/nic0 on leaf 0, host2/nic0 on leaf 1; leaves to spine 0 and spine 1.
  Topology t;
  for (std::uint32_t h = 0; h < 3; ++h) t.add_vertex(VertexKind::kPort, Network::kBackend, 0, 0, h, 0, 1);
  const VertexId l0 = t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 0, 0, 4);
  const VertexId l1 = t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 1, 0, 1, 4);
  const VertexId s0 = t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, 0, 0, 4);
  const VertexId s1 = t.add_vertex(VertexKind::kSwitch, Network::kBackend, 0, 2, 0, 1, 4);
  t.add_link(VertexId(0U), l0, gbps(400), TimePs(0), -1);
  t.add_link(VertexId(1U), l0, gbps(400), TimePs(0), -1);
  t.add_link(VertexId(2U), l1, gbps(400), TimePs(0), -1);
  for (const VertexId leaf : {l0, l1}) {
    t.add_link(leaf, s0, gbps(400), TimePs(0), -1);
    t.add_link(leaf, s1, gbps(400), TimePs(0), -1);
  }
  t.host_count = 3;
  t.ports_per_host = 1;
  t.finalize();
  auto fabric = fabric_from_topology(t, 0);
  ASSERT_TRUE(fabric.ok());
  const IbFabric& f = fabric.value();
  ASSERT_EQ(f.node_count(), 7U);
  EXPECT_EQ(f.guid[0], kTopologyCaGuidBase);
  EXPECT_EQ(f.port_guid(IbNodeId(2U), 1), kTopologyCaGuidBase + 5);
  EXPECT_EQ(f.guid[3], kTopologySwitchGuidBase + 3);
  EXPECT_EQ(f.name[3], "S-0002000000000003");
  EXPECT_EQ(f.description[3], t.vertex_name(l0));
  EXPECT_EQ(f.tier[5], 2);
  // Leaf 0: port 1 host0, port 2 host1, port 3 spine 0, port 4 spine 1.
  EXPECT_EQ(f.remote(IbNodeId(3U), 2).node, IbNodeId(1U));
  EXPECT_EQ(f.remote(IbNodeId(3U), 4).node, IbNodeId(6U));
  // Spine 1: port 1 leaf 0 (its port 4), port 2 leaf 1 (its port 3: leaf 1 has one host).
  EXPECT_EQ(f.remote(IbNodeId(6U), 2).node, IbNodeId(4U));
  EXPECT_EQ(f.remote(IbNodeId(6U), 2).port, 3);
  EXPECT_FALSE(fabric_from_topology(t, 1).ok());
}

TEST(FabricEdits, FailuresRemoveTheNamedCables) {
  IbFabric f = parse_ok(kTwoByTwo);
  auto one = apply_failures(f, {"L1:3"});  // L1-S1
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one.value(), 1U);
  EXPECT_FALSE(f.remote(IbNodeId(2U), 1).connected());  // S1 port 1 was the other end
  auto pair = apply_failures(f, {"leaf2,spine2", "host4"});  // by description: L2-S2, H4's cable
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(pair.value(), 2U);
  EXPECT_EQ(f.cable_count(), 5U);
  auto by_guid = apply_failures(f, {"0x0000000000200002"});  // S1: its last cable (to L2)
  ASSERT_TRUE(by_guid.ok());
  EXPECT_EQ(by_guid.value(), 1U);
  EXPECT_FALSE(apply_failures(f, {"nope"}).ok());
  EXPECT_FALSE(apply_failures(f, {"L1:9"}).ok());
  EXPECT_FALSE(apply_failures(f, {"L1:3"}).ok());       // already unplugged
  EXPECT_FALSE(apply_failures(f, {"leaf1,leaf2"}).ok());  // no cable between them
}

TEST(FabricEdits, NodeListsAcceptNamesGuidsAndComments) {
  const IbFabric f = parse_ok(kTwoByTwo);
  auto list = parse_node_list(f, "# roots\nS1\n0x200003  # spine2 by GUID\n\n0x0000000000100003\n", "roots");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 3U);
  EXPECT_EQ(list.value()[0], IbNodeId(2U));
  EXPECT_EQ(list.value()[1], IbNodeId(3U));
  EXPECT_EQ(list.value()[2], IbNodeId(5U));  // a CA port GUID names its CA (H2)
  auto bad = parse_node_list(f, "S1\nS9\n", "roots");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors()[0].where.line, 2);
}

TEST(FatTreeFabric, ThreeLevelShapeAndRouting) {
  // 2 pods x (2 leaves + 2 spines), 2 hosts per leaf, 2 core groups of 2: 12 switches, 8 CAs,
  // 8 host cables + 8 leaf-spine + 8 spine-core = 24 cables. ftree: every uplink of a rank carries
  // the same number of destinations, and shifts are contention-free.
  const IbFabric f = make_fat_tree_fabric({2, 2, 2, 2, 2});
  EXPECT_EQ(f.switch_count(), 12U);
  EXPECT_EQ(f.ca_count(), 8U);
  EXPECT_EQ(f.cable_count(), 24U);
  EXPECT_EQ(f.description[8], "core0/0");
  auto r = route_fabric(f, {IbEngine::kFatTree, 0, {}, {}, 1});
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  const SwitchGraph graph(f);
  for (const auto& b : uplink_balance(f, r.value(), rank_switches(f, graph, {}))) {
    EXPECT_EQ(b.spread(), 0U) << "rank " << b.rank;
  }
  // Leaf uplinks: 6 remote destinations over 2 spines = 3; spine uplinks: 4 other-pod ones over 2 cores = 2.
  EXPECT_EQ(uplink_balance(f, r.value(), rank_switches(f, graph, {}))[0].max, 3U);
  EXPECT_EQ(uplink_balance(f, r.value(), rank_switches(f, graph, {}))[1].max, 2U);
  EXPECT_EQ(shift_permutation_load(f, r.value(), 7).worst_max_load, 1U);
}

TEST(LftDump, ForeignSwitchGuidIsAnError) {
  const IbFabric f = parse_ok(kTwoByTwo);
  auto dump =
      parse_lft_dump("Unicast lids [0-1] of switch Lid 1 guid 0x00000000000bad00 ('x'):\n0x0001 000\n1 lids dumped\n", "d");
  ASSERT_TRUE(dump.ok());
  auto r = routing_from_lft_dump(f, dump.value(), "d");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("not in the fabric"), std::string::npos);
  EXPECT_EQ(r.errors()[0].where.line, 1);
}

// dump_fts of kTwoByTwo's leaf L1 (GUID 0x200000; ports 1-2 hosts, 3-4 spines) and spine S1
// (0x200002), as dump_fts prints a switch it reached by directed route, with ibroute's footer.
// LIDs: H1 1, H2 2, L1 3, S1 4.
constexpr const char* kDumpFts = R"(Unicast lids [0x0-0x4] of switch DR path slid 0; dlid 0; 0 guid 0x0000000000200000 (leaf1):
  Lid  Out   Destination
       Port     Info 
0x0001 001 : (Channel Adapter portguid 0x0000000000100001: 'host1')
0x0002 002 : (Channel Adapter portguid 0x0000000000100003: 'host2')
0x0003 000 : (Switch portguid 0x0000000000200000: 'leaf1')
0x0004 003 : (Switch portguid 0x0000000000200002: 'spine1')
4 valid lids dumped 
Multicast mlids [0xc000-0xc3ff] of switch Lid 3 guid 0x0000000000200000 (leaf1):
 MLid       Bits:  0 
0xc000         x
1 valid mlids dumped 
Unicast lids [0x0-0x4] of switch Lid 4 guid 0x0000000000200002 (spine1):
  Lid  Out   Destination
       Port     Info 
0x0001 001 : (Channel Adapter portguid 0x0000000000100001: 'host1')
0x0002 001 : (Channel Adapter portguid 0x0000000000100003: 'host2')
0x0003 001 : (Switch portguid 0x0000000000200000: 'leaf1')
0x0004 000 : (Switch portguid 0x0000000000200002: 'spine1')
4 valid lids dumped 
)";

// Replaces the first occurrence of `from` in kDumpFts.
std::string edited_dump(const std::string& from, const std::string& to) {
  std::string text = kDumpFts;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The first error's line, from parsing or (when the parse succeeds) rebuilding on kTwoByTwo.
int dump_error_line(const std::string& text, const std::string& words) {
  const IbFabric f = parse_ok(kTwoByTwo);
  auto dump = parse_lft_dump(text, "d");
  Diagnostics errors;
  if (!dump.ok()) {
    errors = dump.errors();
  } else if (auto r = routing_from_lft_dump(f, dump.value(), "d"); !r.ok()) {
    errors = r.errors();
  }
  if (errors.empty()) {
    ADD_FAILURE() << "accepted: " << words;
    return -1;
  }
  EXPECT_NE(errors[0].message.find(words), std::string::npos) << errors[0].message;
  return errors[0].where.line;
}

TEST(LftDump, ReadsDumpFtsSkippingMulticastTables) {
  const IbFabric f = parse_ok(kTwoByTwo);
  auto dump = parse_lft_dump(kDumpFts, "fts");
  ASSERT_TRUE(dump.ok()) << format_diagnostics(dump.errors());
  ASSERT_EQ(dump->size(), 2U);
  EXPECT_EQ(dump.value()[0].entries.size(), 4U);  // the multicast 0xc000 line is not an entry
  EXPECT_EQ(dump.value()[1].entries[3].line, 19);
  auto r = routing_from_lft_dump(f, dump.value(), "fts");
  ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
  EXPECT_EQ(r->lids.base_lid(IbNodeId(2U), 0), 4);  // S1 by its port GUID
  EXPECT_EQ(r->port(r->switch_index(IbNodeId(0U)), 4), 3);
  EXPECT_EQ(r->port(r->switch_index(IbNodeId(2U)), 2), 1);
}

TEST(LftDump, TruncatedOrMalformedDumpsAreErrorsWithTheirLine) {
  // Cut after the spine's second entry: no footer.
  const std::string text = kDumpFts;
  EXPECT_EQ(dump_error_line(text.substr(0, text.find("0x0003 001")), "truncated"), 17);
  // Cut inside the leaf's table, so the next header comes before its footer.
  EXPECT_EQ(dump_error_line(edited_dump("4 valid lids dumped", ""), "truncated"), 9);
  EXPECT_EQ(dump_error_line(edited_dump("0x0002 002 : (Channel", "0x0002 0x2 : (Channel"), "output port"), 5);
  EXPECT_EQ(dump_error_line(edited_dump("0x0002 002 : (Channel", "0x0002 : (Channel"), "output port"), 5);
  EXPECT_EQ(dump_error_line(edited_dump("4 valid lids", "5 valid lids"), "5 valid lids dumped but has 4"), 8);
  EXPECT_EQ(dump_error_line(edited_dump("0x0004 003", "0x0004 007"), "port 7 out of range"), 7);
  EXPECT_EQ(dump_error_line(edited_dump("portguid 0x0000000000100003: 'host2')\n0x0003",
                                        "portguid 0x0000000000100009: 'host2')\n0x0003"),
                            "not in the fabric"),
            5);
  EXPECT_EQ(dump_error_line(edited_dump("0x0002 001 : (Channel Adapter portguid 0x0000000000100003",
                                        "0x0002 001 : (Channel Adapter portguid 0x0000000000100005"),
                            "LID 2 names port GUID 0x0000000000100005 here but 0x0000000000100003 on line 5"),
            17);
}

TEST(Determinism, ThreadCountDoesNotChangeTheTables) {
  const IbFabric f = make_fat_tree_fabric({2, 3, 3, 3, 2});
  for (const IbEngine e : {IbEngine::kMinHop, IbEngine::kUpDown, IbEngine::kFatTree}) {
    auto one = route_fabric(f, {e, 1, {}, {}, 1});
    auto many = route_fabric(f, {e, 1, {}, {}, 4});
    ASSERT_TRUE(one.ok() && many.ok());
    EXPECT_EQ(write_lft_dump(f, one.value()), write_lft_dump(f, many.value())) << to_string(e);
  }
}

}  // namespace
}  // namespace ct
