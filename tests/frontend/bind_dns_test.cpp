// Model test against BIND 9. System: a real `named` in a network namespace "srv" (192.0.2.53/24);
// clients in namespace "cli" (192.0.2.100/24 on a veth) query with `dig -b SOURCE`. Expected: for
// every name asked, the rcode, the RA flag and the answer records (name, TTL, type, data) named
// returns equal resolve_dns's.
//
// 1. The example (examples/platform/dns), exported by clustertwin (export_named), from an inside
//    address (10.10.1.5, office), a negated one (10.10.99.7, guest Wi-Fi, inside the office /16
//    but rejected by "!10.10.99.0/24") and an outside one (198.51.100.77); then the trap: the same
//    configuration with the catch-all view first, where named and the twin both give the inside
//    client the outside answer.
// 2. The audit's configuration (issue 22), served from the very files the twin reads (no export):
//    a CNAME into another zone of the view and out of the view (named answers it alone unless the
//    view recurses for the client), a nested ACL whose negation is "no match" for its element, a
//    `none` element (it rejects), a `!key` element (unsigned queries pass it), a wildcard with TXT
//    only (NODATA), a CNAME loop (SERVFAIL at the restart limit), zones without $TTL (the SOA
//    minimum; RFC 1035's last TTL) and an $INCLUDE resolved against named's `directory`.
//
// Needs root, iproute2, named and dig; otherwise skipped with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
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
  bool ra = false;
  std::vector<std::string> records;  // "name ttl type data"
};

struct Query {
  std::string client;
  std::string name;
  std::string type = "A";
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
    } else if (line.starts_with(";; flags:") && !answers.empty()) {
      const std::string flags = line.substr(9, line.find(';', 9) - 9);
      answers.back().ra = (" " + flags + " ").find(" ra ") != std::string::npos;
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

DigAnswer twin_answer(const DnsModel& m, const Query& q) {
  const DnsAnswer a = resolve_dns(m, parse_ipv4(q.client).value(), q.name, q.type);
  DigAnswer out{a.rcode, a.recursion_available, {}};
  for (const auto& r : a.answer) out.records.push_back(r.name + " " + std::to_string(r.ttl) + " " + r.type + " " + r.data);
  return out;
}

// Every name of the model from each client.
std::vector<Query> every_name(const DnsModel& m, const std::vector<std::string>& clients) {
  std::vector<std::string> names = dns_names(m);
  names.push_back("absent.example.com");
  std::vector<Query> out;
  for (const auto& c : clients) {
    for (const auto& n : names) out.push_back({c, n});
  }
  return out;
}

class BindDns : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = why_no_netns(); !why.empty()) GTEST_SKIP() << why;
    if (!have_binary("named") || !have_binary("dig")) GTEST_SKIP() << "named or dig not installed (Debian bind9, dnsutils)";
  }

  // Serves dir/named.conf with named (it listens on 192.0.2.53), asks every query with RD set, as
  // stub resolvers do, and compares each answer with the twin's `m`; returns the number compared.
  int serve_and_compare(const TempDir& dir, const DnsModel& m, const std::vector<Query>& queries) {
    Netns srv(unique_name("dns-srv")), cli(unique_name("dns-cli"));
    EXPECT_TRUE(srv.created() && cli.created());
    const std::string veth = "ctdns" + std::to_string(getpid() % 100000);
    EXPECT_TRUE(ok("ip link add " + veth + "s netns " + srv.name() + " type veth peer name " + veth + "c netns " + cli.name()));
    EXPECT_TRUE(srv.ip("addr add 192.0.2.53/24 dev " + veth + "s") && srv.ip("link set " + veth + "s up"));
    EXPECT_TRUE(cli.ip("addr add 192.0.2.100/24 dev " + veth + "c") && cli.ip("link set " + veth + "c up"));
    std::vector<std::string> clients;
    for (const auto& q : queries) {
      if (std::find(clients.begin(), clients.end(), q.client) == clients.end()) clients.push_back(q.client);
    }
    for (const auto& c : clients) EXPECT_TRUE(cli.ip("addr add " + c + "/32 dev lo"));
    for (const char* net : {"10.10.0.0/16", "198.51.100.0/24", "203.0.113.0/24"}) EXPECT_TRUE(srv.ip(std::string("route add ") + net + " via 192.0.2.100"));
    const auto check = run("named-checkconf -z " + dir.path() + "/named.conf");
    EXPECT_EQ(check.status, 0) << check.out;
    Background named(srv.exec_args({"named", "-f", "-c", dir.path() + "/named.conf", "-n", "1"}));
    const double up = wait_until([&] { return ok(cli.exec("dig +time=1 +tries=1 -b " + clients[0] + " @192.0.2.53 example.com SOA")); },
                                 std::chrono::seconds(60));
    EXPECT_GE(up, 0) << "named did not answer within 60 s";
    std::string batch;
    for (const auto& q : queries) batch += "-b " + q.client + " @192.0.2.53 " + q.name + " " + q.type + " +noall +comments +answer\n";
    dir.write("batch", batch);
    const auto out = run(cli.exec("dig +time=2 +tries=1 -f " + dir.path() + "/batch"));
    const auto got = parse_dig(out.out);
    EXPECT_EQ(got.size(), queries.size()) << out.out;
    int compared = 0;
    for (std::size_t i = 0; i < std::min(got.size(), queries.size()); ++i) {
      const DigAnswer want = twin_answer(m, queries[i]);
      const std::string what = queries[i].name + " " + queries[i].type + " from " + queries[i].client;
      EXPECT_EQ(got[i].rcode, want.rcode) << what;
      EXPECT_EQ(got[i].ra, want.ra) << what;
      EXPECT_EQ(got[i].records, want.records) << what;
      ++compared;
    }
    return compared;
  }

  int compare(const DnsModel& m) {
    TempDir dir;
    for (const auto& f : export_named(m, {dir.path(), "192.0.2.53", dir.path() + "/named.pid"})) dir.write(f.name, f.content);
    return serve_and_compare(dir, m, every_name(m, {"10.10.1.5", "10.10.99.7", "198.51.100.77"}));
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

// The audit's configuration (issue 22, items 1-5). Clients: 10.10.1.5 (staff), 10.10.99.7 (a guest:
// "staff" rejects it inside, which is no match for that element, and the next element takes it
// into view "inside"), 198.51.100.77 (view "blocked" begins with `none`, which rejects everyone,
// so view "outside"), 203.0.113.9 (view "recursive", allowed to recurse) and 203.0.113.10 (the
// same view, not allowed).
const char* kAuditConf = R"(key "xfer" { algorithm hmac-sha256; secret "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0"; };
acl "guests" { 10.10.99.0/24; };
acl "staff" { !guests; 10.10.0.0/16; };
options {
    directory "@DIR@";
    recursion no;
    listen-on { 192.0.2.53; };
    listen-on-v6 { none; };
    pid-file "@DIR@/named.pid";
    session-keyfile "@DIR@/session.key";
};
view "inside" {
    match-clients { !key xfer; staff; 10.10.99.0/24; };
    zone "example.com" { type primary; file "zones/db.example.com"; };
    zone "example.net" { type primary; file "db.example.net"; };
};
view "blocked" {
    match-clients { none; any; };
    zone "example.com" { type primary; file "db.blocked"; };
};
view "recursive" {
    match-clients { 203.0.113.0/24; };
    recursion yes;
    allow-recursion { 203.0.113.9; };
    zone "example.com" { type primary; file "zones/db.example.com"; };
    zone "example.net" { type primary; file "db.example.net"; };
};
view "outside" {
    match-clients { any; };
    zone "example.com" { type primary; file "db.blocked"; };
};
)";

// No $TTL: the SOA's minimum (120) becomes the default. The $INCLUDE names its file relative to
// named's directory, not to zones/.
const char* kAuditZone = R"($ORIGIN example.com.
@       IN SOA ns1 hostmaster 1 3600 600 604800 120
        IN NS  ns1
ns1     IN A   192.0.2.53
gw      IN A   198.51.100.10
app     IN CNAME gw
cross   IN CNAME web.example.net.
ext     IN CNAME www.example.org.
loop1   IN CNAME loop2
loop2   IN CNAME loop1
*.wild  IN TXT "text only"
*.star  60 IN A 198.51.100.99
$INCLUDE zones/apps.inc apps.example.com.
after   IN A   198.51.100.12
)";

const char* kAuditInclude = R"(grafana IN CNAME gw.example.com.
inc     300 IN A 198.51.100.11
)";

// No $TTL, an SOA with its own TTL: later records without one take the last TTL written (RFC 1035).
const char* kAuditNet = R"(@ 600 IN SOA ns1.example.com. hostmaster.example.com. 1 3600 600 604800 120
    IN NS ns1.example.com.
web 60 IN A 198.51.100.20
www    IN A 198.51.100.21
)";

const char* kBlocked = R"($TTL 300
@ IN SOA ns1 hostmaster 1 3600 600 604800 300
  IN NS ns1
ns1 IN A 192.0.2.53
gw  IN A 203.0.113.66
app IN A 203.0.113.66
)";

TEST_F(BindDns, AuditCasesAnswerLikeNamed) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() + "/zones");
  std::string conf = kAuditConf;
  for (std::size_t at; (at = conf.find("@DIR@")) != std::string::npos;) conf.replace(at, 5, dir.path());
  dir.write("named.conf", conf);
  dir.write("zones/db.example.com", kAuditZone);
  dir.write("zones/apps.inc", kAuditInclude);
  dir.write("db.example.net", kAuditNet);
  dir.write("db.blocked", kBlocked);
  auto m = load_dns(dir.path() + "/named.conf");
  ASSERT_TRUE(m.ok()) << format_diagnostics(m.errors());
  const DnsModel& dns = m.value();
  // The cases, as the twin sees them (named's answers are compared below).
  const auto ask = [&](const char* client, const char* name) { return resolve_dns(dns, parse_ipv4(client).value(), name); };
  EXPECT_EQ(dns.conf.views[*ask("10.10.99.7", "gw.example.com").view].name, "inside");
  EXPECT_EQ(dns.conf.views[*ask("198.51.100.77", "gw.example.com").view].name, "outside");
  EXPECT_EQ(ask("10.10.1.5", "cross.example.com").chain_stops_at, "web.example.net");
  EXPECT_EQ(ask("203.0.113.9", "cross.example.com").addresses(), std::vector<std::string>{"198.51.100.20"});
  EXPECT_EQ(ask("10.10.1.5", "loop1.example.com").rcode, "SERVFAIL");
  EXPECT_EQ(ask("10.10.1.5", "a.wild.example.com").rcode, "NOERROR");
  EXPECT_EQ(ask("10.10.1.5", "after.example.com").answer.at(0).ttl, 120u);
  EXPECT_EQ(ask("10.10.1.5", "www.example.net").answer.at(0).ttl, 60u);
  // As named warns: once per load, and views "inside" and "recursive" each load both zones.
  ASSERT_EQ(dns.warnings.size(), 4u);
  EXPECT_EQ(format_diagnostic(dns.warnings[0]), dir.path() + "/zones/db.example.com:2:1: warning: ttl: no TTL specified; using SOA MINTTL instead");
  EXPECT_EQ(format_diagnostic(dns.warnings[1]), dir.path() + "/db.example.net:2:1: warning: ttl: using RFC1035 TTL semantics");

  const char* names[] = {"gw.example.com", "app.example.com", "cross.example.com", "ext.example.com", "loop1.example.com",
                         "a.wild.example.com", "b.star.example.com", "grafana.apps.example.com", "inc.apps.example.com",
                         "after.example.com", "absent.example.com", "web.example.net", "www.example.net"};
  std::vector<Query> queries;
  for (const char* client : {"10.10.1.5", "10.10.99.7", "198.51.100.77", "203.0.113.9", "203.0.113.10"}) {
    for (const char* n : names) {
      // A recursive lookup goes to the wider DNS, which the namespace cannot reach: not comparable.
      if (resolve_dns(dns, parse_ipv4(client).value(), n).rcode != "RECURSIVE") queries.push_back({client, n});
    }
    queries.push_back({client, "example.com", "NS"});
    queries.push_back({client, "example.com", "SOA"});
  }
  EXPECT_EQ(serve_and_compare(dir, dns, queries), 5 * 15 - 1);
}

}  // namespace
}  // namespace ct
