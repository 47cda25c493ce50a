// Model test against BIND 9. System: the example's named.conf and zones (examples/platform/dns),
// exported by clustertwin (export_named) and served by a real `named` in a network namespace
// "srv" (192.0.2.53/24); clients in namespace "cli" (192.0.2.100/24 on a veth) query with
// `dig -b SOURCE` from an inside address (10.10.1.5, office), a negated one (10.10.99.7, guest
// Wi-Fi, inside the office /16 but rejected by "!10.10.99.0/24") and an outside one
// (198.51.100.77). Expected: for every name of the example (and one that does not exist) the rcode
// and the answer records (name, TTL, type, data) named returns equal resolve_dns's. Then the trap:
// the same configuration with the catch-all view first; named and the twin must both give the
// inside client the outside answer.
//
// Needs root, iproute2, named and dig; otherwise skipped with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "frontend/dns_views.h"
#include "io/dns_files.h"
#include "support/netns.h"
#include "routing/port_address.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using namespace ct::test;

struct DigAnswer {
  std::string rcode;
  std::vector<std::string> records;  // "name ttl type data"
};

// Parses the output of a dig batch (+noall +comments +answer): one ";; Got answer:" per query.
std::vector<DigAnswer> parse_dig(const std::string& out) {
  std::vector<DigAnswer> answers;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("->>HEADER<<-") != std::string::npos) {
      DigAnswer a;
      const auto s = line.find("status: ");
      a.rcode = line.substr(s + 8, line.find(',', s) - s - 8);
      answers.push_back(a);
    } else if (!line.empty() && line[0] != ';' && !answers.empty()) {
      std::istringstream f(line);
      std::string name, ttl, cls, type, data;
      f >> name >> ttl >> cls >> type;
      std::getline(f, data);
      data.erase(0, data.find_first_not_of(" \t"));
      if (name.ends_with(".")) name.pop_back();
      if (data.ends_with(".") && (type == "CNAME" || type == "NS")) data.pop_back();
      answers.back().records.push_back(name + " " + ttl + " " + type + " " + data);
    }
  }
  return answers;
}

DigAnswer twin_answer(const DnsModel& m, const std::string& client, const std::string& name) {
  const DnsAnswer a = resolve_dns(m, parse_ipv4(client).value(), name);
  DigAnswer out{a.rcode, {}};
  for (const auto& r : a.answer) out.records.push_back(r.name + " " + std::to_string(r.ttl) + " " + r.type + " " + r.data);
  return out;
}

class BindDns : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = why_no_netns(); !why.empty()) GTEST_SKIP() << why;
    if (!have_binary("named") || !have_binary("dig")) GTEST_SKIP() << "named or dig not installed (Debian bind9, dnsutils)";
  }

  // Serves `m` with named and compares every name from every client; returns the number compared.
  int compare(const DnsModel& m) {
    TempDir dir;
    Netns srv(unique_name("dns-srv")), cli(unique_name("dns-cli"));
    EXPECT_TRUE(srv.created() && cli.created());
    const std::string veth = "ctdns" + std::to_string(getpid() % 100000);
    EXPECT_TRUE(ok("ip link add " + veth + "s netns " + srv.name() + " type veth peer name " + veth + "c netns " + cli.name()));
    EXPECT_TRUE(srv.ip("addr add 192.0.2.53/24 dev " + veth + "s") && srv.ip("link set " + veth + "s up"));
    EXPECT_TRUE(cli.ip("addr add 192.0.2.100/24 dev " + veth + "c") && cli.ip("link set " + veth + "c up"));
    for (const char* a : {"10.10.1.5/32", "10.10.99.7/32", "198.51.100.77/32"}) EXPECT_TRUE(cli.ip(std::string("addr add ") + a + " dev lo"));
    EXPECT_TRUE(srv.ip("route add 10.10.0.0/16 via 192.0.2.100") && srv.ip("route add 198.51.100.0/24 via 192.0.2.100"));
    for (const auto& f : export_named(m, {dir.path(), "192.0.2.53", dir.path() + "/named.pid"})) dir.write(f.name, f.content);
    const auto check = run("named-checkconf -z " + dir.path() + "/named.conf");
    EXPECT_EQ(check.status, 0) << check.out;
    Background named(srv.exec("named -f -c " + dir.path() + "/named.conf -n 1"));
    const double up = wait_until([&] { return ok(cli.exec("dig +time=1 +tries=1 -b 10.10.1.5 @192.0.2.53 example.com SOA")); },
                                 std::chrono::seconds(15));
    EXPECT_GE(up, 0) << "named did not answer within 15 s";
    std::vector<std::string> names = dns_names(m);
    names.push_back("absent.example.com");
    int compared = 0;
    for (const std::string client : {"10.10.1.5", "10.10.99.7", "198.51.100.77"}) {
      std::string batch;
      for (const auto& n : names) batch += "-b " + client + " @192.0.2.53 " + n + " A +norecurse +noall +comments +answer\n";
      dir.write("batch", batch);
      const auto out = run(cli.exec("dig +time=2 +tries=1 -f " + dir.path() + "/batch"));
      const auto got = parse_dig(out.out);
      EXPECT_EQ(got.size(), names.size()) << out.out;
      for (std::size_t i = 0; i < std::min(got.size(), names.size()); ++i) {
        const DigAnswer want = twin_answer(m, client, names[i]);
        EXPECT_EQ(got[i].rcode, want.rcode) << names[i] << " from " << client;
        EXPECT_EQ(got[i].records, want.records) << names[i] << " from " << client;
        ++compared;
      }
    }
    return compared;
  }
};

TEST_F(BindDns, ExampleViewsAnswerLikeNamed) {
  auto m = load_dns(ct::testing_support::source_dir() + "/examples/platform/dns/named.conf");
  ASSERT_TRUE(m.ok()) << format_diagnostics(m.errors());
  // The example must exercise both views: an inside client gets the VIP, the guest the public address.
  EXPECT_EQ(resolve_dns(m.value(), parse_ipv4("10.10.1.5").value(), "chat.example.com").addresses(),
            std::vector<std::string>{"198.51.100.10"});
  EXPECT_EQ(resolve_dns(m.value(), parse_ipv4("10.10.99.7").value(), "chat.example.com").addresses(),
            std::vector<std::string>{"203.0.113.10"});
  EXPECT_GE(compare(m.value()), 3 * 15);
}

TEST_F(BindDns, CatchAllViewFirstHidesTheInsideView) {
  auto m = load_dns(ct::testing_support::source_dir() + "/examples/platform/dns/named.conf");
  ASSERT_TRUE(m.ok());
  DnsModel swapped = m.value();
  std::swap(swapped.conf.views[0], swapped.conf.views[1]);
  std::swap(swapped.zones[0], swapped.zones[1]);
  EXPECT_EQ(resolve_dns(swapped, parse_ipv4("10.10.1.5").value(), "chat.example.com").addresses(),
            std::vector<std::string>{"203.0.113.10"});
  EXPECT_EQ(resolve_dns(swapped, parse_ipv4("10.10.1.5").value(), "grafana.apps.example.com").rcode, "NXDOMAIN");
  EXPECT_GE(compare(swapped), 3 * 15);
}

}  // namespace
}  // namespace ct
