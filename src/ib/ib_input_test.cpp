// What the subnet manager model takes from its inputs, and what it must not: LIDs an input states
// are kept (as OpenSM keeps the LIDs it finds), the order of the input file changes nothing, and
// every complaint about an input names its file and line.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ib/fabric_edits.h"
#include "ib/fat_tree_fabric.h"
#include "ib/ib_checks.h"
#include "ib/ib_ranking.h"
#include "ib/ibnetdiscover.h"
#include "ib/lft_dump.h"
#include "ib/subnet_manager.h"
#include "ib/switch_graph.h"

#include "support/ib_fixtures.h"

namespace ct {
namespace {

// 2 leaves x 2 spines, two hosts per leaf (ibsim GUIDs: switches 0x200000.., CAs 0x100000..).
// Lines: L1 1, L2 7, S1 13, S2 17, H1 21, H2 24, H3 27, H4 30.
constexpr const char* kFabric = fixtures::kIbTwoByTwo;

IbFabric parse_ok(std::string_view text, const std::string& file = "test.net") {
  auto parsed = parse_ibnetdiscover(text, file);
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : format_diagnostics(parsed.errors()));
  return parsed.ok() ? std::move(parsed).value() : IbFabric{};
}

// The first diagnostic of a failed result.
template <typename T>
Diagnostic first_error(const Result<T>& r) {
  EXPECT_FALSE(r.ok());
  return r.ok() ? Diagnostic{} : r.errors().front();
}

// Node blocks of a written file in another order: the header comment first, then the blocks by
// (k * i) mod n with k the first of 7, 11, 13 coprime to n (a fixed permutation).
std::string shuffled(const std::string& text) {
  std::vector<std::string> blocks;
  std::size_t begin = 0;
  while (begin < text.size()) {
    auto end = text.find("\n\n", begin);
    end = end == std::string::npos ? text.size() : end + 2;
    blocks.push_back(text.substr(begin, end - begin));
    begin = end;
  }
  const std::size_t n = blocks.size() - 1;
  std::size_t k = 7;
  while (std::gcd(k, n) != 1) k += k == 7 ? 4 : 2;
  std::string out = blocks[0];
  for (std::size_t i = 0; i < n; ++i) out += blocks[1 + (k * i) % n];
  return out;
}

// The first line where two texts differ ("" when equal), for a readable failure.
std::string first_difference(const std::string& a, const std::string& b) {
  std::size_t begin = 0;
  while (begin < a.size() || begin < b.size()) {
    const auto ea = a.find('\n', begin);
    const auto eb = b.find('\n', begin);
    const std::string la = a.substr(begin, ea == std::string::npos ? std::string::npos : ea - begin);
    const std::string lb = b.substr(begin, eb == std::string::npos ? std::string::npos : eb - begin);
    if (la != lb || ea != eb) return la + "  vs  " + lb;
    begin = ea + 1;
  }
  return "";
}

TEST(StatedLids, EveryLidTheFileStatesIsKept) {
  // LIDs nothing like our own order (which would be H1..H4 1-4, then L1..S2 5-8): the file says
  // L1 40, L2 17, S1 3, S2 9, H1 22, H2 5, H3 31, H4 12 (as `ib export --lids` writes them, and
  // ibsim presets them). Every engine keeps each of them.
  const IbFabric f = parse_ok(kFabric);
  LidAssignment stated;
  stated.reset(f, 0);
  const std::vector<std::pair<int, std::uint32_t>> wanted = {{0, 40}, {1, 17}, {2, 3}, {3, 9},
                                                             {4, 22}, {5, 5},  {6, 31}, {7, 12}};
  for (const auto& [node, lid] : wanted) stated.assign(IbNodeId(node), node < 4 ? 0 : 1, lid, 1, f);
  const IbFabric g = parse_ok(write_ibnetdiscover(f, &stated), "lids.net");
  for (const IbEngine e : {IbEngine::kMinHop, IbEngine::kUpDown, IbEngine::kFatTree}) {
    auto r = route_fabric(g, {e, 0, {}, {}, 1});
    ASSERT_TRUE(r.ok()) << format_diagnostics(r.errors());
    for (const auto& [node, lid] : wanted) {
      const IbNodeId n = *g.find_by_guid(f.guid[static_cast<std::size_t>(node)]);
      EXPECT_EQ(r->lids.base_lid(n, node < 4 ? 0 : 1), lid) << f.label(IbNodeId(node)) << " " << to_string(e);
    }
    EXPECT_EQ(r->lids.max_lid(), 40U);
    EXPECT_TRUE(check_reachability(g, r.value()).ok()) << to_string(e);
  }
}

TEST(StatedLids, PortsWithoutALidGetFreeOnesInPortGuidOrder) {
  // Only H3 (lid 2) and L1 (lid 1) stated; "lid 0" (no SM yet) states nothing. In port GUID order
  // the rest take the first free LIDs: H1 3, H2 4, H4 5, L2 6, S1 7, S2 8.
  std::string text = kFabric;
  text.replace(text.find("# \"leaf1\""), 9, "# \"leaf1\" enhanced port 0 lid 1 lmc 0");
  text.replace(text.find("[1] \"L2\"[1]"), 11, "[1] \"L2\"[1]  # lid 2 lmc 0 \"leaf2\" lid 0");
  text.replace(text.find("[1] \"L1\"[2]"), 11, "[1] \"L1\"[2]  # lid 0 lmc 0 \"leaf1\" lid 1");
  const IbFabric f = parse_ok(text);
  auto lids = assign_lids(f, 0);
  ASSERT_TRUE(lids.ok()) << format_diagnostics(lids.errors());
  const std::vector<std::uint32_t> expected = {1, 6, 7, 8, 3, 4, 2, 5};  // L1 L2 S1 S2 H1 H2 H3 H4
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(lids->base_lid(IbNodeId(i), i < 4 ? 0 : 1), expected[i]) << f.label(IbNodeId(i));
  }
}

TEST(StatedLids, LidsThatCannotBeKeptAreErrorsAtTheirLine) {
  std::string dup = kFabric;  // H1 (line 22) and H2 (line 25) both say LID 3; H2 has the higher port GUID
  dup.replace(dup.find("[1] \"L1\"[1]"), 11, "[1] \"L1\"[1]  # lid 3 lmc 0 \"leaf1\"");
  dup.replace(dup.find("[1] \"L1\"[2]"), 11, "[1] \"L1\"[2]  # lid 3 lmc 0 \"leaf1\"");
  Diagnostic d = first_error(assign_lids(parse_ok(dup), 0));
  EXPECT_EQ(d.where.file, "test.net");
  EXPECT_EQ(d.where.line, 25);
  EXPECT_EQ(d.field, "port.lid");
  EXPECT_NE(d.message.find("LID 3 of \"host2\" port 1 is already the LID of \"host1\" port 1 (line 22)"), std::string::npos)
      << d.message;
  // LID 3 is no base of a 2-LID block (LMC 1).
  std::string odd = kFabric;
  odd.replace(odd.find("[1] \"L1\"[1]"), 11, "[1] \"L1\"[1]  # lid 3 lmc 1 \"leaf1\"");
  d = first_error(route_fabric(parse_ok(odd), {IbEngine::kMinHop, 1, {}, {}, 1}));
  EXPECT_EQ(d.where.line, 22);
  EXPECT_NE(d.message.find("not a multiple of 2"), std::string::npos) << d.message;
  // Beyond the unicast range: a parse error at the number's column.
  std::string big = kFabric;
  big.replace(big.find("# \"leaf1\""), 9, "# \"leaf1\" enhanced port 0 lid 49152 lmc 0");
  d = first_error(parse_ibnetdiscover(big, "big.net"));
  EXPECT_EQ(d.where.line, 1);
  EXPECT_EQ(d.where.column, 45);  // the "4" of 49152
  EXPECT_EQ(d.field, "node.lid");
}

TEST(InputOrder, ShuffledNodeBlocksGiveTheSameTablesAndReports) {
  // A degraded 3-level tree (hosts and cables missing, so switches tie on CA counts and balance
  // depends on the order destinations are routed in), written in GUID order and in a shuffled
  // order. Every engine gives byte-identical LFT dumps (same LIDs, same ports) and the same
  // balance and permutation figures.
  IbFabric tree = make_fat_tree_fabric({4, 4, 4, 4, 4});
  ASSERT_TRUE(apply_failures(tree, {"pod0/leaf0/host1", "pod2/leaf3/host0", "pod1/leaf2,pod1/spine3"}).ok());
  const std::string text = write_ibnetdiscover(tree, nullptr);
  const IbFabric a = parse_ok(text, "guid-order.net");
  const IbFabric b = parse_ok(shuffled(text), "shuffled.net");
  ASSERT_NE(a.guid, b.guid) << "the shuffle left the node order as it was";
  for (const IbEngine e : {IbEngine::kMinHop, IbEngine::kUpDown, IbEngine::kFatTree}) {
    IbRoutingOptions oa{e, 0, {}, {}, 2};
    IbRoutingOptions ob = oa;
    if (e == IbEngine::kFatTree) {  // not a pure fat tree any more: roots given, by GUID
      const SwitchGraph graph(a);
      for (const auto s : detect_roots(a, graph)) {
        oa.roots.push_back(graph.node(s));
        ob.roots.push_back(*b.find_by_guid(a.guid[graph.node(s).value()]));
      }
    }
    auto ra = route_fabric(a, oa);
    auto rb = route_fabric(b, ob);
    ASSERT_TRUE(ra.ok() && rb.ok()) << to_string(e);
    EXPECT_EQ(first_difference(write_lft_dump(a, ra.value()), write_lft_dump(b, rb.value())), "") << to_string(e);
    const auto sa = shift_permutation_load(a, ra.value(), 64);
    const auto sb = shift_permutation_load(b, rb.value(), 64);
    EXPECT_EQ(sa.worst_max_load, sb.worst_max_load) << to_string(e);
    EXPECT_DOUBLE_EQ(sa.mean_max_load, sb.mean_max_load) << to_string(e);
    const auto ba = uplink_balance(a, ra.value(), rank_switches(a, SwitchGraph(a), oa.roots));
    const auto bb = uplink_balance(b, rb.value(), rank_switches(b, SwitchGraph(b), ob.roots));
    ASSERT_EQ(ba.size(), bb.size());
    for (std::size_t i = 0; i < ba.size(); ++i) {
      EXPECT_EQ(ba[i].max, bb[i].max);
      EXPECT_EQ(ba[i].min, bb[i].min);
      EXPECT_EQ(ba[i].worst_switch, bb[i].worst_switch);
    }
  }
}

TEST(InputErrors, LoopbackCablesAndEmptyFilesAreLocated) {
  // Port 3 of L1 cabled to its own port 4: a wiring mistake, refused at the first of the two lines.
  const Diagnostic loop = first_error(parse_ibnetdiscover("Switch 4 \"L1\"\n[3] \"L1\"[4]\n[4] \"L1\"[3]\n", "loop.net"));
  EXPECT_EQ(loop.where.line, 2);
  EXPECT_EQ(loop.field, "port.remote_node");
  EXPECT_NE(loop.message.find("cabled to port 4 of the same switch"), std::string::npos) << loop.message;
  const Diagnostic net = first_error(parse_ibnetdiscover("", "empty.net"));
  EXPECT_EQ(net.where.file, "empty.net");
  EXPECT_EQ(net.where.line, 1);
  EXPECT_NE(net.message.find("empty"), std::string::npos);
  const Diagnostic lft = first_error(parse_lft_dump("", "empty.dump"));
  EXPECT_EQ(lft.where.line, 1);
  EXPECT_NE(lft.message.find("empty"), std::string::npos);
}

TEST(LftDumpFooter, OpenSmsFooterIsTheTopLidNotTheEntryCount) {
  // As OpenSM's dump_ucast_lfts prints it: LIDs 0..max_lid, unrouted ones left out, then
  // "<max_lid> lids dumped". Here 3 entries in a table whose top LID is 8.
  const std::string head = "Unicast lids [0-8] of switch Lid 5 guid 0x0000000000200000 ('leaf1'):\n"
                           "0x0001 001 # Channel Adapter portguid 0x0000000000100001: 'host1'\n"
                           "0x0002 002 # Channel Adapter portguid 0x0000000000100003: 'host2'\n"
                           "0x0005 000 # Switch portguid 0x0000000000200000: 'leaf1'\n";
  auto ok = parse_lft_dump(head + "8 lids dumped\n", "opensm-lfts.dump");
  ASSERT_TRUE(ok.ok()) << format_diagnostics(ok.errors());
  EXPECT_EQ(ok.value()[0].entries.size(), 3U);
  EXPECT_TRUE(parse_lft_dump(head + "3 lids dumped\n", "d").ok());  // counted, as dump_fts -a
  const Diagnostic wrong = first_error(parse_lft_dump(head + "7 lids dumped\n", "d"));
  EXPECT_EQ(wrong.where.line, 5);
  EXPECT_NE(wrong.message.find("header's top LID is 8"), std::string::npos) << wrong.message;
  // dump_fts's "valid" footer counts entries: the top LID is no excuse there.
  EXPECT_FALSE(parse_lft_dump(head + "8 valid lids dumped\n", "d").ok());
  const Diagnostic outside = first_error(parse_lft_dump(head + "0x0009 001 # x\n8 lids dumped\n", "d"));
  EXPECT_EQ(outside.where.line, 5);
  EXPECT_NE(outside.message.find("outside the table's range [0-8]"), std::string::npos) << outside.message;
}

TEST(NodeLists, RootsMustBeSwitchesAndComputeNodesCas) {
  const IbFabric f = parse_ok(kFabric);
  Diagnostic d = first_error(parse_node_list(f, "S1\nH1\n", "roots.txt", IbNodeType::kSwitch));
  EXPECT_EQ(d.where.file, "roots.txt");
  EXPECT_EQ(d.where.line, 2);
  EXPECT_NE(d.message.find("\"H1\" is a CA (\"host1\"), not a switch"), std::string::npos) << d.message;
  d = first_error(parse_node_list(f, "host1\nleaf2\n", "cn.txt", IbNodeType::kCa));
  EXPECT_EQ(d.where.line, 2);
  EXPECT_NE(d.message.find("not a CA"), std::string::npos) << d.message;
  d = first_error(parse_node_list(f, "# nobody\n", "roots.txt", IbNodeType::kSwitch));
  EXPECT_EQ(d.where.line, 1);
  EXPECT_NE(d.message.find("names no node"), std::string::npos) << d.message;
  auto roots = parse_node_list(f, "spine1\n0x0000000000200003\n", "roots.txt", IbNodeType::kSwitch);
  ASSERT_TRUE(roots.ok());
  EXPECT_EQ(roots->size(), 2U);
  // A library caller passing a CA as a root is refused too, at the CA's line.
  d = first_error(route_fabric(f, {IbEngine::kUpDown, 0, {IbNodeId(4U)}, {}, 1}));
  EXPECT_EQ(d.where.line, 21);
  EXPECT_EQ(d.field, "roots");
}

TEST(InputErrors, RoutingErrorsNameTheFileAndLine) {
  // updn without a root to detect (no switch has a CA): the file, no line at fault.
  const IbFabric bare = parse_ok("Switch 2 \"A\"\n[1] \"B\"[1]\n\nSwitch 2 \"B\"\n[1] \"A\"[1]\n", "bare.net");
  Diagnostic d = first_error(route_fabric(bare, {IbEngine::kUpDown, 0, {}, {}, 1}));
  EXPECT_EQ(d.where.file, "bare.net");
  EXPECT_EQ(d.field, "roots");
  // ftree refusing the fabric without L2-S2: at L2, the switch that differs (line 7).
  IbFabric cut = parse_ok(kFabric);
  cut.disconnect(IbNodeId(1U), 4);
  d = first_error(route_fabric(cut, {IbEngine::kFatTree, 0, {}, {}, 1}));
  EXPECT_EQ(d.where.file, "test.net");
  EXPECT_EQ(d.where.line, 7);
  EXPECT_NE(d.message.find("'leaf2' has 1"), std::string::npos) << d.message;
  // LMC 7 on two 254-port switches with 253 CAs each: 128 LIDs per CA port from LID 128, so CAs
  // 1..383 (port GUID order, here file order) fit below 0xBFFF = 49151 and the 384th does not.
  std::string big = "Switch 254 \"A\"\n";
  for (int i = 1; i <= 253; ++i) big += "[" + std::to_string(i) + "] \"C" + std::to_string(i) + "\"[1]\n";
  big += "[254] \"B\"[254]\n\nSwitch 254 \"B\"\n";
  for (int i = 1; i <= 253; ++i) big += "[" + std::to_string(i) + "] \"C" + std::to_string(253 + i) + "\"[1]\n";
  big += "[254] \"A\"[254]\n";
  int ca384_line = 0;
  for (int i = 1; i <= 506; ++i) {
    big += "\nCa 1 \"C" + std::to_string(i) + "\"\n[1] \"" + (i <= 253 ? "A" : "B") + "\"[" +
           std::to_string(i <= 253 ? i : i - 253) + "]\n";
    if (i == 384) ca384_line = static_cast<int>(std::count(big.begin(), big.end(), '\n')) - 1;
  }
  d = first_error(route_fabric(parse_ok(big, "big.net"), {IbEngine::kMinHop, 7, {}, {}, 1}));
  EXPECT_EQ(d.where.file, "big.net");
  EXPECT_EQ(d.where.line, ca384_line);
  EXPECT_EQ(d.field, "lmc");
  EXPECT_NE(d.message.find("no LID left for \"C384\" port 1: the fabric needs 64770 LIDs with LMC 7"), std::string::npos)
      << d.message;
}

}  // namespace
}  // namespace ct
