// The Fabric stage: one build, one verdict for every command, and one name directory.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric.h"
#include "io/loaders.h"
#include "routing/port_address.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/fabric_fixtures.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using ::testing::HasSubstr;

const Catalog& catalog() {
  static const Catalog c = load_catalog(ct::testing_support::source_dir() + "/catalog").value();
  return c;
}

std::string lab32_text() {
  std::ifstream in(ct::testing_support::source_dir() + "/examples/lab-32.yaml");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Result<Fabric> fabric_of(const std::string& text) {
  auto valid = validate_reading(read_spec("lab.yaml", text), catalog());
  if (!valid) return valid.errors();
  return build_fabric(valid.value(), catalog());
}

// The lab has 32 hosts x 8 rails on one plane of 2 tiers: 8 leaves of 32 down ports, 32 up ports
// each, and 32 spines (one port to each leaf per spine: 8 x 32 leaf-spine links).
TEST(Fabric, BuildsTheLab) {
  auto f = fabric_of(lab32_text());
  ASSERT_TRUE(f.ok()) << format_diagnostics(f.errors());
  EXPECT_EQ(f->topology().host_count, 32);
  EXPECT_EQ(f->forwarding().leaf_count(), 8u);
  EXPECT_EQ(&f->walker(), &f->walker());
  // The parts keep their addresses when the fabric moves.
  const Topology* before = &f->topology();
  Fabric moved = std::move(f).value();
  EXPECT_EQ(&moved.topology(), before);
}

// The spec names a hash function no switch offers: refused by the build stage, so by every command.
TEST(Fabric, RefusesAnUnknownHashFunction) {
  auto f = fabric_of(lab32_text() + "routing:\n  ecmp:\n    hash: crc64\n");
  ASSERT_FALSE(f.ok());
  ASSERT_EQ(f.errors().size(), 1u);
  EXPECT_EQ(f.errors()[0].field, "routing.ecmp.hash");
  EXPECT_GT(f.errors()[0].where.line, 0);
  EXPECT_THAT(f.errors()[0].message, HasSubstr("crc64"));
}

std::string example_text(const std::string& name) {
  std::ifstream in(std::string(ct::testing_support::source_dir() + "/examples/") + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return at == std::string::npos ? -1 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

// The protocol follows from the catalog: QM9700 runs InfiniBand only, SN5600 and SN2700 Ethernet
// only; ConnectX-7 runs both, ConnectX-6 Dx Ethernet only. So lab-32 is InfiniBand and lab-32-roce,
// homelab and the B300 examples are Ethernet.
TEST(FabricProtocol, FollowsTheSwitchAndNic) {
  auto lab = fabric_of(lab32_text());
  ASSERT_TRUE(lab.ok()) << format_diagnostics(lab.errors());
  EXPECT_EQ(lab->protocol(), Protocol::kInfiniband);
  for (const char* name : {"lab-32-roce.yaml", "homelab.yaml", "b300-dual-plane.yaml"}) {
    auto f = fabric_of(example_text(name));
    ASSERT_TRUE(f.ok()) << name << ": " << format_diagnostics(f.errors());
    EXPECT_EQ(f->protocol(), Protocol::kEthernet) << name;
  }
}

// `hash` on InfiniBand is warned about, `ib` on Ethernet refused; each diagnostic is located at the
// spec's backend.switch line and names what decides paths there.
TEST(FabricProtocol, MismatchIsLocatedAtTheSwitch) {
  const std::string lab = lab32_text();
  auto ib = fabric_of(lab);
  ASSERT_TRUE(ib.ok());
  EXPECT_FALSE(protocol_mismatch(ib.value(), Protocol::kInfiniband, "ib", Severity::kError).has_value());
  const auto warning = protocol_mismatch(ib.value(), Protocol::kEthernet, "clustertwin hash", Severity::kWarning);
  ASSERT_TRUE(warning.has_value());
  EXPECT_EQ(warning->severity, Severity::kWarning);
  EXPECT_EQ(warning->field, "backend.switch");
  EXPECT_EQ(warning->where.file, "lab.yaml");
  EXPECT_EQ(warning->where.line, line_of(lab, "switch: qm9700"));
  EXPECT_THAT(warning->message, HasSubstr("subnet manager"));

  const std::string roce = example_text("lab-32-roce.yaml");
  auto eth = fabric_of(roce);
  ASSERT_TRUE(eth.ok());
  EXPECT_FALSE(protocol_mismatch(eth.value(), Protocol::kEthernet, "hash", Severity::kWarning).has_value());
  const auto error = protocol_mismatch(eth.value(), Protocol::kInfiniband, "clustertwin ib", Severity::kError);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->severity, Severity::kError);
  EXPECT_EQ(error->where.line, line_of(roce, "switch: sn5600"));
  EXPECT_THAT(error->message, HasSubstr("Ethernet"));
}

// A switch and NIC with no protocol in common are refused by the build stage (validate refuses them
// first; the build stage checks again for a ValidSpec made otherwise), located at backend.switch.
TEST(FabricProtocol, NoCommonProtocolIsALocatedError) {
  const std::string lab = lab32_text();
  auto valid = validate_reading(read_spec("lab.yaml", lab), catalog());
  ASSERT_TRUE(valid.ok());
  ValidSpec changed = valid.value();
  changed.backend.nic.protocols = {Protocol::kEthernet};
  auto p = backend_protocol(changed);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.errors()[0].field, "backend.switch");
  EXPECT_EQ(p.errors()[0].where.line, line_of(lab, "switch: qm9700"));
  EXPECT_THAT(p.errors()[0].message, HasSubstr("no protocol in common"));
  auto f = build_fabric(changed, catalog());
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.errors()[0].field, "backend.switch");
}

TEST(NameDirectory, ResolvesEveryPrintedName) {
  auto f = fabric_of(lab32_text());
  ASSERT_TRUE(f.ok());
  const Topology& t = f->topology();
  const SourceLocation cmd{"command line", 0, 0};
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    auto r = f->names().vertex(t.vertex_name(VertexId(v)), cmd, "--x");
    ASSERT_TRUE(r.ok()) << t.vertex_name(VertexId(v));
    EXPECT_EQ(r.value(), VertexId(v));
  }
  // host0/nic0 -- p0/leaf/0 is link 0 (the NIC link of port 0, topology/builder.h).
  auto l = f->names().links("host0/nic0 -- p0/leaf/0", cmd, "--fail");
  ASSERT_TRUE(l.ok()) << format_diagnostics(l.errors());
  EXPECT_EQ(l.value(), std::vector<LinkId>{LinkId(0)});
  auto by_id = f->names().links("0", cmd, "--fail");
  ASSERT_TRUE(by_id.ok());
  EXPECT_EQ(by_id.value(), l.value());
}

// The port grammar as written: the three spellings of a port, numbers as std::from_chars reads
// them ("host03" is host 3); nothing trimmed, no address, nothing outside the fabric.
TEST(NameDirectory, SpellsPortsByTheGrammarAlone) {
  auto f = fabric_of(lab32_text());
  ASSERT_TRUE(f.ok());
  const Topology& t = f->topology();
  const NameDirectory& n = f->names();
  EXPECT_EQ(n.port_spelled("host3"), t.port_of(HostId(3u), 0, 0));
  EXPECT_EQ(n.port_spelled("host3/nic1"), t.port_of(HostId(3u), 1, 0));
  EXPECT_EQ(n.port_spelled("host03/nic1/p0"), t.port_of(HostId(3u), 1, 0));
  for (const char* bad : {" host3", "host3 ", "host", "host3/nic", "host3/gpu0", "host-1", "10.1.0.3", "host32", "p0/leaf/0"}) {
    EXPECT_EQ(n.port_spelled(bad), std::nullopt) << bad;
  }
}

// cables(a, b) against a plain pass over every link: the links with ends {a, b}, in id order, from
// either end; none for two vertices no cable joins.
TEST(NameDirectory, CablesAreEveryLinkJoiningTwoVerticesInIdOrder) {
  auto f = fabric_of(lab32_text());
  ASSERT_TRUE(f.ok());
  const Topology& t = f->topology();
  for (std::uint32_t l = 0; l < t.link_count(); ++l) {
    const VertexId a = t.link_a[l];
    const VertexId b = t.link_b[l];
    std::vector<LinkId> expected;
    for (std::uint32_t m = 0; m < t.link_count(); ++m) {
      if ((t.link_a[m] == a && t.link_b[m] == b) || (t.link_a[m] == b && t.link_b[m] == a)) expected.emplace_back(m);
    }
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      std::vector<LinkId> got;
      for (const Adjacency& adj : f->names().cable_index().cables(x, y)) {
        EXPECT_TRUE(adj.neighbor == x || adj.neighbor == y);
        got.push_back(adj.link);
      }
      EXPECT_EQ(got, expected) << t.link_name(LinkId(l));
      for (std::size_t k = 0; k <= expected.size(); ++k) {
        EXPECT_EQ(f->names().cable_index().cable(x, y, k), k < expected.size() ? expected[k] : LinkId::invalid()) << t.link_name(LinkId(l));
      }
    }
  }
  const SourceLocation cmd{"command line", 0, 0};
  const VertexId leaf0 = f->names().vertex("p0/leaf/0", cmd, "--x").value();
  const VertexId leaf1 = f->names().vertex("p0/leaf/1", cmd, "--x").value();
  EXPECT_TRUE(f->names().cable_index().cables(leaf0, leaf1).empty());
  EXPECT_FALSE(f->names().cable_index().cable(leaf0, leaf1, 0).valid());
}

// Lists longer than a search block (16 entries) are searched through their summary: here every
// leaf has 5 hosts and 3 parallel cables to each of 7 spines (26 neighbours) and every spine 3 to
// each of 6 leaves (18), so runs of parallel cables straddle the blocks' edges. Every pair of
// vertices, joined or not, against a scan of every link.
TEST(NameDirectory, CablesAcrossSearchBlocks) {
  const Topology t = fixtures::two_tier(6, 7, 5, 3);
  const NameDirectory names(t);
  for (std::uint32_t a = 0; a < t.vertex_count(); ++a) {
    for (std::uint32_t b = 0; b < t.vertex_count(); ++b) {
      std::vector<LinkId> expected;
      for (std::uint32_t l = 0; l < t.link_count(); ++l) {
        if ((t.link_a[l].value() == a && t.link_b[l].value() == b) || (t.link_a[l].value() == b && t.link_b[l].value() == a)) {
          expected.emplace_back(l);
        }
      }
      std::vector<LinkId> got;
      for (const Adjacency& adj : names.cable_index().cables(VertexId(a), VertexId(b))) got.push_back(adj.link);
      EXPECT_EQ(got, expected) << a << " " << b;
      for (std::size_t k = 0; k <= expected.size(); ++k) {
        EXPECT_EQ(names.cable_index().cable(VertexId(a), VertexId(b), k), k < expected.size() ? expected[k] : LinkId::invalid());
      }
    }
  }
  EXPECT_EQ(t.neighbors(VertexId(30)).size(), 26U);  // a leaf: longer than a block
}

TEST(NameDirectory, SuggestsAndSaysHowLargeTheFabricIs) {
  auto f = fabric_of(lab32_text());
  ASSERT_TRUE(f.ok());
  const SourceLocation cmd{"command line", 0, 0};
  auto typo = f->names().backend_switch("p0/spnie/3", cmd, "--fib");
  ASSERT_FALSE(typo.ok());
  EXPECT_THAT(typo.errors()[0].message, HasSubstr("did you mean 'p0/spine/3'"));
  auto big = f->names().backend_port("host40/nic0", cmd, "--from");
  ASSERT_FALSE(big.ok());
  EXPECT_THAT(big.errors()[0].message, HasSubstr("host0..host31"));
  auto no_cable = f->names().links("p0/leaf/0 -- p0/leaf/1", cmd, "--fail");
  ASSERT_FALSE(no_cable.ok());
  EXPECT_THAT(no_cable.errors()[0].message, HasSubstr("no cable joins p0/leaf/0 and p0/leaf/1"));
}

// The address plan (routing/port_address.h) on the lab: 32 hosts x 8 rails x 1 plane fit the
// compact scheme, whose addresses must not move: host 7's NIC 1 is 10.(16 x 0 + 1).(7 / 256).(7 mod
// 256) = 10.1.0.7, host 31's NIC 7 is 10.7.0.31.
TEST(AddressPlan, KeepsTheCompactAddressesWhereTheyFit) {
  auto f = fabric_of(lab32_text());
  ASSERT_TRUE(f.ok());
  const Topology& t = f->topology();
  EXPECT_EQ(format_ipv4(port_address(t, t.port_of(HostId(7), 1, 0))), "10.1.0.7");
  EXPECT_EQ(format_ipv4(port_address(t, t.port_of(HostId(31), 7, 0))), "10.7.0.31");
  auto by_address = f->names().backend_port("10.1.0.7", {"command line", 0, 0}, "--from");
  ASSERT_TRUE(by_address.ok());
  EXPECT_EQ(t.vertex_name(by_address.value()), "host7/nic1");
}

// A node with 32 backend NICs (a catalog entry of our own: 32 rails > the compact scheme's 16) is a
// valid design that every command must accept: 4 such nodes on one plane of qm9700 leaves. The
// dense scheme numbers port (h, r, p) as 10.0.0.0 + (p R + r) H + h with H = 4, R = 32: host 3's
// NIC 17 is 10.0.0.0 + 17 x 4 + 3 = 10.0.0.71, and the last port (3, 31) is 10.0.0.127. Every
// port's address is distinct and leads back to it.
TEST(AddressPlan, AddressesEveryValidFabric) {
  Catalog wide = catalog();
  NodeModel node = *wide.find_node("hgx-h100");
  node.id = "wide-32";
  node.gpus = 32;
  node.backend_nics = 32;
  wide.nodes.push_back(node);
  const std::string text =
      "name: wide\nnodes: {model: wide-32, count: 4}\n"
      "backend: {topology: rail-optimized, planes: 1, tiers: 2, switch: qm9700, oversubscription: [1]}\n";
  auto valid = validate_reading(read_spec("wide.yaml", text), wide);
  ASSERT_TRUE(valid.ok()) << format_diagnostics(valid.errors());
  auto f = build_fabric(valid.value(), wide);
  ASSERT_TRUE(f.ok()) << format_diagnostics(f.errors());
  const Topology& t = f->topology();
  ASSERT_EQ(t.ports_per_host, 32);
  EXPECT_FALSE(compact_addresses(t));
  EXPECT_EQ(format_ipv4(port_address(t, t.port_of(HostId(3), 17, 0))), "10.0.0.71");
  EXPECT_EQ(format_ipv4(port_address(t, t.port_of(HostId(3), 31, 0))), "10.0.0.127");
  std::set<std::uint32_t> seen;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kPort || t.network[v] != Network::kBackend) continue;
    const std::uint32_t a = port_address(t, VertexId(v));
    EXPECT_TRUE(seen.insert(a).second) << format_ipv4(a);
    EXPECT_EQ(port_of_address(t, a), VertexId(v));
  }
  EXPECT_EQ(seen.size(), 128u);
  EXPECT_EQ(port_of_address(t, ipv4(10, 0, 0, 128)), std::nullopt);
  auto by_address = f->names().backend_port("10.0.0.71", {"command line", 0, 0}, "--from");
  ASSERT_TRUE(by_address.ok());
  EXPECT_EQ(t.vertex_name(by_address.value()), "host3/nic17");
}

// printed_vertex reads exactly the names Topology::vertex_name prints and indexes them through the
// vertex numbering; the hash map of every name (vertex()) is the independent reference. Three
// shapes: one plane of two tiers (the lab: "host3/nic1", "p0/spine/7"), two planes of three tiers
// ("host3/nic1/p1", "p1/pod2/leaf/5", "p0/core/3") and the hand-built 3-tier fixture.
TEST(NameDirectory, ParsesEveryPrintedNameToItsVertex) {
  const SourceLocation cmd{"command line", 0, 0};
  const auto every_name = [&](const Topology& t, const NameDirectory& names) -> std::size_t {
    std::size_t backend = 0;
    for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
      const std::string name = t.vertex_name(VertexId(v));
      if (t.network[v] != Network::kBackend) {
        EXPECT_FALSE(names.printed_vertex(name).valid()) << name;  // the frontend goes through vertex()
        continue;
      }
      ++backend;
      EXPECT_EQ(names.printed_vertex(name), VertexId(v)) << name;
      auto by_map = names.vertex(name, cmd, "--x");
      EXPECT_TRUE(by_map.ok() && by_map.value() == VertexId(v)) << name;
    }
    return backend;
  };
  auto lab = fabric_of(lab32_text());
  ASSERT_TRUE(lab.ok());
  // 256 ports, 8 leaves of 32 up ports and 4 spines of 64 ports (QM9700: 8 cables to each leaf).
  EXPECT_EQ(every_name(lab->topology(), lab->names()), 256U + 8U + 4U);
  auto big = fabric_of(R"(
name: two-planes-three-tiers
nodes: {model: hgx-b300, count: 256}
backend:
  topology: rail-optimized
  planes: 2
  tiers: 3
  switch: sn5600
  port_speed: 400G
  oversubscription: [1, 1]
)");
  ASSERT_TRUE(big.ok()) << format_diagnostics(big.errors());
  const Topology& t = big->topology();
  ASSERT_EQ(t.tiers, 3);
  ASSERT_EQ(t.planes, 2);
  EXPECT_GT(every_name(t, big->names()), 4096U);
  const Topology fixture = fixtures::three_tier_two_pods(2, 2);
  const NameDirectory fixture_names(fixture);
  EXPECT_EQ(every_name(fixture, fixture_names), 4U + 2U + 4U + 4U);
  EXPECT_EQ(fixture_names.printed_vertex("p0/pod1/spine/1"), VertexId(9));
  EXPECT_EQ(fixture_names.printed_vertex("p0/core/3"), VertexId(13));

  // Other spellings are not printed names; vertex() still resolves the ones it accepts.
  const NameDirectory& names = lab->names();
  for (const char* other : {"p0/leaf/01", "p0/leaf/+1", " p0/leaf/1", "p0/leaf/1 ", "p0/leaf/8", "p0/pod0/leaf/0",
                            "p1/leaf/0", "p0/spine/4294967296", "p0/spine/", "p0/tor/1", "host0/nic0/p0", "host32/nic0",
                            "host0/nic8", "host0", "10.1.0.7", "", "p", "host"}) {
    EXPECT_FALSE(names.printed_vertex(other).valid()) << other;
  }
  EXPECT_TRUE(names.vertex(" p0/leaf/1", cmd, "--x").ok());
  EXPECT_TRUE(names.vertex("10.1.0.7", cmd, "--x").ok());
  EXPECT_FALSE(big->names().printed_vertex("host0/nic0").valid());  // two planes print "/p0"
  EXPECT_FALSE(big->names().printed_vertex("p0/leaf/0").valid());   // three tiers print the pod
  EXPECT_FALSE(big->names().printed_vertex("p0/pod0/core/0").valid());
}

// The lab has 32 hosts x 8 GPUs: "host3/gpu2" is GPU 3 x 8 + 2 = 26, as "gpu26" and "26" are.
TEST(NameDirectory, ResolvesGpusInEveryForm) {
  auto f = fabric_of(lab32_text());
  ASSERT_TRUE(f.ok());
  const SourceLocation cmd{"command line", 0, 0};
  for (const char* name : {"host3/gpu2", "gpu26", "26", " host3/gpu2 "}) {
    auto g = f->names().gpu(name, cmd, "--gpus");
    ASSERT_TRUE(g.ok()) << name << ": " << format_diagnostics(g.errors());
    EXPECT_EQ(g.value(), 26u) << name;
  }
  auto last = f->names().gpu("host31/gpu7", cmd, "--gpus");
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last.value(), 255u);
  auto host = f->names().gpu("host32/gpu0", cmd, "--gpus");
  ASSERT_FALSE(host.ok());
  EXPECT_THAT(host.errors()[0].message, HasSubstr("host0..host31 with gpu0..gpu7"));
  auto id = f->names().gpu("gpu256", cmd, "--gpus");
  ASSERT_FALSE(id.ok());
  EXPECT_THAT(id.errors()[0].message, HasSubstr("256 GPUs"));
  auto junk = f->names().gpu("host3/nic2", cmd, "--gpus");
  ASSERT_FALSE(junk.ok());
  EXPECT_EQ(junk.errors()[0].field, "--gpus");
}

}  // namespace
}  // namespace ct
