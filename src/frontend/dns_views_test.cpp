// Split-view DNS worked by hand against the BIND grammar and RFC 1034/1035 rules quoted in
// dns_views.h. The real named is run on the same files in tests/frontend/bind_dns_test.cpp.
#include "frontend/dns_views.h"

#include <gtest/gtest.h>

#include <map>

#include <fmt/format.h>

#include "routing/port_address.h"

namespace ct {
namespace {

const char* kConf = R"(// two views
acl "inside" { !10.10.99.0/24; 10.10.0.0/16; 192.0.2.0/24; };
options { directory "/var/cache/bind"; recursion no; };
view "internal" {
    match-clients { inside; };
    zone "example.com" { type primary; file "int.db"; };
};
view "external" {
    match-clients { any; };
    zone "example.com" { type primary; file "ext.db"; };
};
)";

const char* kInternal = R"($ORIGIN example.com.
$TTL 300
@   IN SOA ns1 hostmaster ( 1 3600 600
        604800 300 )
    IN NS ns1
ns1 IN A 192.0.2.53
gw  IN A 198.51.100.10
app IN CNAME gw
ext IN CNAME www.example.org.
*.wild 60 IN A 198.51.100.99
$ORIGIN apps.example.com.
grafana IN CNAME gw.example.com.
)";

const char* kExternal = R"($ORIGIN example.com.
$TTL 1h
@   IN SOA ns1 hostmaster 1 3600 600 604800 300
app 600 IN A 203.0.113.10
)";

DnsModel model(const char* conf_text) {
  auto conf = parse_named_conf(conf_text, "named.conf");
  EXPECT_TRUE(conf.ok()) << (conf.ok() ? "" : format_diagnostics(conf.errors()));
  DnsModel m;
  m.conf = std::move(conf).value();
  for (const auto& v : m.conf.views) {
    std::vector<Zone> zones;
    for (const auto& z : v.zones) {
      auto zone = parse_zone(z.file == "int.db" ? kInternal : kExternal, z.name, z.file);
      EXPECT_TRUE(zone.ok()) << (zone.ok() ? "" : format_diagnostics(zone.errors()));
      zones.push_back(std::move(zone).value());
    }
    m.zones.push_back(std::move(zones));
  }
  return m;
}

std::uint32_t ip(const char* s) { return parse_ipv4(s).value(); }

// Address match lists: "the first element that matches decides; a negated element rejects".
// 10.10.1.5: !10.10.99.0/24 does not match, 10.10.0.0/16 does -> internal. 10.10.99.7: the negated
// element matches first -> rejected by "inside" -> external. 198.51.100.77 -> external.
TEST(DnsViews, FirstMatchingViewAndNegation) {
  const DnsModel m = model(kConf);
  EXPECT_EQ(select_view(m.conf, ip("10.10.1.5")).view, 0u);
  EXPECT_EQ(select_view(m.conf, ip("10.10.99.7")).view, 1u);
  EXPECT_EQ(select_view(m.conf, ip("198.51.100.77")).view, 1u);
  EXPECT_EQ(select_view(m.conf, ip("192.0.2.200")).view, 0u);
}

// The trap: "named picks the first view ... whose match-clients matches". With the any-view first,
// the internal view can never be chosen, even for 10.10.1.5.
TEST(DnsViews, FirstViewMatchingEveryoneHidesTheRest) {
  std::string conf = kConf;
  const auto a = conf.find("view \"internal\""), b = conf.find("view \"external\"");
  conf = conf.substr(0, a) + conf.substr(b) + conf.substr(a, b - a);
  const DnsModel m = model(conf.c_str());
  EXPECT_EQ(m.conf.views[0].name, "external");
  EXPECT_EQ(select_view(m.conf, ip("10.10.1.5")).view, 0u);
  EXPECT_EQ(resolve_dns(m, ip("10.10.1.5"), "app.example.com").addresses(), std::vector<std::string>{"203.0.113.10"});
}

// Zone data: relative names get $ORIGIN (which changes mid-file), a blank owner repeats the last
// one, ( ) joins lines, $TTL 1h = 3600. CNAME app -> gw answers both records; grafana.apps ->
// gw.example.com. across the $ORIGIN change; the wildcard *.wild answers x.wild; a name with only
// names below it (apps.example.com) is NODATA; nope is NXDOMAIN; a name outside every zone is
// REFUSED; the CNAME to www.example.org leaves the view's zones.
TEST(DnsViews, ZoneAnswers) {
  const DnsModel m = model(kConf);
  const auto in = ip("10.10.1.5");
  const DnsAnswer app = resolve_dns(m, in, "App.Example.com.");
  ASSERT_EQ(app.answer.size(), 2u);
  EXPECT_EQ(app.answer[0].type, "CNAME");
  EXPECT_EQ(app.answer[0].data, "gw.example.com");
  EXPECT_EQ(app.addresses(), std::vector<std::string>{"198.51.100.10"});
  EXPECT_EQ(app.answer[1].ttl, 300u);
  EXPECT_EQ(app.answer[1].where.line, 7);
  EXPECT_EQ(resolve_dns(m, in, "grafana.apps.example.com").addresses(), std::vector<std::string>{"198.51.100.10"});
  const DnsAnswer wild = resolve_dns(m, in, "x.wild.example.com");
  EXPECT_EQ(wild.addresses(), std::vector<std::string>{"198.51.100.99"});
  EXPECT_EQ(wild.answer[0].ttl, 60u);
  const DnsAnswer nodata = resolve_dns(m, in, "apps.example.com");
  EXPECT_EQ(nodata.rcode, "NOERROR");
  EXPECT_TRUE(nodata.answer.empty());
  EXPECT_EQ(resolve_dns(m, in, "nope.example.com").rcode, "NXDOMAIN");
  EXPECT_EQ(resolve_dns(m, in, "example.net").rcode, "REFUSED");
  const DnsAnswer ext = resolve_dns(m, in, "ext.example.com");
  EXPECT_EQ(ext.rcode, "NOERROR");
  ASSERT_EQ(ext.answer.size(), 1u);
  EXPECT_EQ(ext.answer[0].data, "www.example.org");
  const DnsAnswer out = resolve_dns(m, ip("198.51.100.77"), "app.example.com");
  EXPECT_EQ(out.addresses(), std::vector<std::string>{"203.0.113.10"});
  EXPECT_EQ(out.answer[0].ttl, 600u);
  EXPECT_EQ(resolve_dns(m, ip("198.51.100.77"), "gw.example.com").rcode, "NXDOMAIN");
}

TEST(DnsViews, SyntaxErrorsNameTheLine) {
  auto missing_semi = parse_named_conf("view \"a\" {\n  zone \"x\" { type primary; file \"f\" };\n};\n", "n.conf");
  ASSERT_FALSE(missing_semi.ok());
  EXPECT_EQ(format_diagnostic(missing_semi.errors()[0]), "n.conf:2:37: error: missing ';' before '}'");
  auto unclosed = parse_named_conf("view \"a\" {\n  match-clients { any; };\n", "n.conf");
  ASSERT_FALSE(unclosed.ok());
  EXPECT_NE(unclosed.errors()[0].message.find("opened at line 1"), std::string::npos);
  auto undefined = parse_named_conf("view \"a\" { match-clients { office; }; };\n", "n.conf");
  ASSERT_FALSE(undefined.ok());
  EXPECT_EQ(undefined.errors()[0].message, "undefined ACL 'office'");
  auto bad_zone = parse_zone("$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\nx IN A 300.1.1.1\n", "example.com", "z.db");
  ASSERT_FALSE(bad_zone.ok());
  EXPECT_EQ(format_diagnostic(bad_zone.errors()[0]), "z.db:3:1: error: A: expected one IPv4 address");
}

// BIND's address-match-list rules (dns_acl_match), worked by hand for the ACLs
//   acl guests { 10.20.99.0/24; };            acl staff { !guests; 10.20.0.0/16; };
//   acl nested { { !10.30.1.0/24; 10.30.0.0/16; }; };
// - first match wins: { 10.0.0.0/8; !10.1.0.0/16; } accepts 10.1.2.3 (the /8 comes first);
//   { !10.1.0.0/16; 10.0.0.0/8; } rejects it.
// - negation only at its level: 10.20.99.5 in { staff; 10.20.99.0/24; } — inside staff, !guests
//   matches and rejects, which for the element "staff" is no match; the next element accepts. In
//   { !staff; any; } the same client: staff does not match, so !staff does not either; any accepts
//   (no double negation). 10.20.1.5 in { !staff; any; }: staff matches, !staff rejects.
// - nested lists: { nested; } rejects nobody: 10.30.1.9 is no match (not rejected) and 10.30.2.9
//   is accepted.
// - none is !any: { none; any; } rejects everyone; { !none; } accepts everyone.
// - key elements: the twin's queries are unsigned, so { key k; any; } and { !key k; any; } both
//   reach any and accept.
TEST(DnsViews, AddressMatchListsFollowBind) {
  const auto conf = parse_named_conf(R"(key "k" { algorithm hmac-sha256; secret "c2VjcmV0"; };
acl guests { 10.20.99.0/24; };
acl staff { !guests; 10.20.0.0/16; };
acl nested { { !10.30.1.0/24; 10.30.0.0/16; }; };
acl first { 10.0.0.0/8; !10.1.0.0/16; };
acl second { !10.1.0.0/16; 10.0.0.0/8; };
acl staff_then_guests { staff; 10.20.99.0/24; };
acl not_staff { !staff; any; };
acl only_nested { nested; };
acl none_first { none; any; };
acl not_none { !none; };
acl key_first { key k; any; };
acl not_key { !key k; any; };
)", "n.conf");
  ASSERT_TRUE(conf.ok()) << format_diagnostics(conf.errors());
  const auto m = [&](const char* acl, const char* client) {
    for (const auto& a : conf->acls) {
      if (a.name == acl) return match_address_list(conf.value(), a.elements, ip(client)).match;
    }
    ADD_FAILURE() << acl;
    return AclMatch::kNoMatch;
  };
  EXPECT_EQ(m("first", "10.1.2.3"), AclMatch::kAccept);
  EXPECT_EQ(m("second", "10.1.2.3"), AclMatch::kReject);
  EXPECT_EQ(m("second", "10.2.2.3"), AclMatch::kAccept);
  EXPECT_EQ(m("second", "192.0.2.1"), AclMatch::kNoMatch);
  EXPECT_EQ(m("staff", "10.20.99.5"), AclMatch::kReject);
  EXPECT_EQ(m("staff_then_guests", "10.20.99.5"), AclMatch::kAccept);
  EXPECT_EQ(m("not_staff", "10.20.99.5"), AclMatch::kAccept);
  EXPECT_EQ(m("not_staff", "10.20.1.5"), AclMatch::kReject);
  EXPECT_EQ(m("only_nested", "10.30.1.9"), AclMatch::kNoMatch);
  EXPECT_EQ(m("only_nested", "10.30.2.9"), AclMatch::kAccept);
  EXPECT_EQ(m("none_first", "192.0.2.1"), AclMatch::kReject);
  EXPECT_EQ(m("not_none", "192.0.2.1"), AclMatch::kAccept);
  EXPECT_EQ(m("key_first", "192.0.2.1"), AclMatch::kAccept);
  EXPECT_EQ(m("not_key", "192.0.2.1"), AclMatch::kAccept);
  const AclDecision d = match_address_list(conf.value(), conf->acls[6].elements, ip("10.20.99.5"));
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0], "10.20.99.5 is rejected by !\"guests\" inside ACL \"staff\": no match for that element, the next one is tried");
}

// Undefined names are located at any depth; a key must be defined.
TEST(DnsViews, UndefinedAclOrKeyIsLocated) {
  auto nested = parse_named_conf("acl a { { 10.0.0.0/8; missing; }; };\nview v { match-clients { a; }; };\n", "n.conf");
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(format_diagnostic(nested.errors()[0]), "n.conf:1:23: error: match-clients: undefined ACL 'missing'");
  auto key = parse_named_conf("view v {\n  match-clients { !key xfer; any; };\n};\n", "n.conf");
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(format_diagnostic(key.errors()[0]), "n.conf:2:19: error: match-clients: undefined key 'xfer'");
}

// Recursion, as named decides it: the view's setting, else the options', else yes; allowed by
// allow-recursion, else allow-query-cache, else allow-query, else localnets and localhost (the
// twin knows no local networks: 127/8 only).
TEST(DnsViews, RecursionFollowsTheViewThenTheOptions) {
  const auto conf = parse_named_conf(R"(options { recursion no; allow-query { 10.0.0.0/8; }; };
view a { match-clients { 10.1.0.0/16; }; recursion yes; allow-recursion { 10.1.1.0/24; }; };
view b { match-clients { 10.2.0.0/16; }; };
view c { match-clients { any; }; recursion yes; };
)", "n.conf");
  ASSERT_TRUE(conf.ok()) << format_diagnostics(conf.errors());
  EXPECT_TRUE(recursion_for(conf.value(), 0, ip("10.1.1.7")).available);
  EXPECT_FALSE(recursion_for(conf.value(), 0, ip("10.1.2.7")).available);
  EXPECT_EQ(recursion_for(conf.value(), 1, ip("10.2.0.1")).why, "recursion no, set in options");
  EXPECT_TRUE(recursion_for(conf.value(), 2, ip("10.3.0.1")).available);   // allow-query of the options
  EXPECT_FALSE(recursion_for(conf.value(), 2, ip("192.0.2.1")).available);
}

// CNAMEs across zones (recursion off), loops, wildcards owning other types. Zones example.com
// and example.org in one view:
// - cross -> web.example.org: another zone, the view does not recurse: the CNAME alone, NOERROR;
// - loop1 -> loop2 -> loop1: named restarts 11 times, then SERVFAIL with the two CNAMEs once each;
// - a chain of 11 CNAMEs ends in an address; one of 12 is SERVFAIL (named 9.18 does the same);
// - *.txt owns only a TXT: a.txt A is NODATA (NOERROR, no answer), not NXDOMAIN.
TEST(DnsViews, CnameChainsAndWildcardsAsNamed) {
  auto conf = parse_named_conf(R"(options { recursion no; };
view v { zone "example.com" { type primary; file "com.db"; }; zone "example.org" { type primary; file "org.db"; }; };
)", "n.conf");
  ASSERT_TRUE(conf.ok());
  std::string com = "$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\ncross IN CNAME web.example.org.\nloop1 IN CNAME loop2\nloop2 IN CNAME loop1\n"
                    "*.txt IN TXT \"x\"\n";
  for (int i = 1; i <= 12; ++i) com += fmt::format("c{} IN CNAME c{}\n", i, i + 1);
  com += "c13 IN A 198.51.100.13\n";
  DnsModel m;
  m.conf = std::move(conf).value();
  m.zones.push_back({parse_zone(com, "example.com", "com.db").value(),
                     parse_zone("$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\nweb IN A 198.51.100.20\n", "example.org", "org.db").value()});
  const auto c = ip("192.0.2.1");
  const DnsAnswer cross = resolve_dns(m, c, "cross.example.com");
  EXPECT_EQ(cross.rcode, "NOERROR");
  ASSERT_EQ(cross.answer.size(), 1u);
  EXPECT_EQ(cross.chain_stops_at, "web.example.org");
  const DnsAnswer loop = resolve_dns(m, c, "loop1.example.com");
  EXPECT_EQ(loop.rcode, "SERVFAIL");
  EXPECT_EQ(loop.answer.size(), 2u);
  const DnsAnswer eleven = resolve_dns(m, c, "c2.example.com");
  EXPECT_EQ(eleven.rcode, "NOERROR");
  EXPECT_EQ(eleven.addresses(), std::vector<std::string>{"198.51.100.13"});
  const DnsAnswer twelve = resolve_dns(m, c, "c1.example.com");
  EXPECT_EQ(twelve.rcode, "SERVFAIL");
  EXPECT_EQ(twelve.answer.size(), 12u);
  const DnsAnswer wild = resolve_dns(m, c, "a.txt.example.com");
  EXPECT_EQ(wild.rcode, "NOERROR");
  EXPECT_TRUE(wild.answer.empty());
  EXPECT_EQ(resolve_dns(m, c, "a.txt.example.com", "TXT").answer.size(), 1u);
}

// Zones without $TTL, as named's loader: the SOA's minimum becomes the default (warned); a record
// without TTL after one with a TTL takes it (RFC 1035, warned once); a record before any TTL is
// known rejects the zone.
TEST(DnsViews, ZonesWithoutTtlLoadAsNamed) {
  auto soa = parse_zone("@ IN SOA ns hm 1 2 3 4 120\nwww IN A 192.0.2.1\n", "example.com", "z.db");
  ASSERT_TRUE(soa.ok()) << format_diagnostics(soa.errors());
  EXPECT_EQ(soa->records[0].ttl, 120u);
  EXPECT_EQ(soa->records[1].ttl, 120u);
  ASSERT_EQ(soa->warnings.size(), 1u);
  EXPECT_EQ(format_diagnostic(soa->warnings[0]), "z.db:1:1: warning: ttl: no TTL specified; using SOA MINTTL instead");
  auto rfc = parse_zone("@ 600 IN SOA ns hm 1 2 3 4 120\nwww IN A 192.0.2.1\na 60 IN A 192.0.2.2\nb IN A 192.0.2.3\n", "example.com", "z.db");
  ASSERT_TRUE(rfc.ok());
  EXPECT_EQ(rfc->records[1].ttl, 600u);
  EXPECT_EQ(rfc->records[3].ttl, 60u);
  ASSERT_EQ(rfc->warnings.size(), 1u);
  EXPECT_EQ(format_diagnostic(rfc->warnings[0]), "z.db:2:1: warning: ttl: using RFC1035 TTL semantics");
  auto none = parse_zone("www IN A 192.0.2.1\n@ IN SOA ns hm 1 2 3 4 120\n", "example.com", "z.db");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(format_diagnostic(none.errors()[0]), "z.db:1:1: error: ttl: no TTL specified; zone rejected (no $TTL, no TTL before this record)");
}

// $INCLUDE through the reader: the included origin, the includer's origin and owner restored,
// $TTL carried on; a loop and a file that cannot be read are errors at the $INCLUDE line.
TEST(DnsViews, IncludeReadsThroughTheSeam) {
  const std::map<std::string, std::string> files = {
      {"a.inc", "$TTL 60\nx IN A 192.0.2.10\n"},
      {"loop.inc", "$INCLUDE loop2.inc\n"},
      {"loop2.inc", "$INCLUDE loop.inc\n"},
  };
  const ZoneIncludeReader reader = [&](const std::string& name, const SourceLocation&) -> Result<ZoneText> {
    const auto it = files.find(name);
    if (it == files.end()) return Diagnostic{{name, 0, 0}, "", "cannot open " + name};
    return ZoneText{name, it->second};
  };
  auto z = parse_zone("$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\n$INCLUDE \"a.inc\" sub\n  IN A 192.0.2.11\ny IN A 192.0.2.12\n", "example.com",
                      "z.db", reader);
  ASSERT_TRUE(z.ok()) << format_diagnostics(z.errors());
  ASSERT_EQ(z->records.size(), 4u);
  EXPECT_EQ(z->records[1].name, "x.sub.example.com");
  EXPECT_EQ(z->records[1].where.file, "a.inc");
  EXPECT_EQ(z->records[2].name, "example.com");  // the blank owner is the includer's last owner again
  EXPECT_EQ(z->records[3].name, "y.example.com");
  EXPECT_EQ(z->records[3].ttl, 60u);
  auto loop = parse_zone("$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\n$INCLUDE loop.inc\n", "example.com", "z.db", reader);
  ASSERT_FALSE(loop.ok());
  EXPECT_EQ(format_diagnostic(loop.errors()[0]), "loop2.inc:1:1: error: $INCLUDE: include loop: z.db includes loop.inc includes loop2.inc includes loop.inc");
  auto missing = parse_zone("$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\n$INCLUDE nope.inc\n", "example.com", "z.db", reader);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(format_diagnostic(missing.errors()[0]), "z.db:3:1: error: $INCLUDE: cannot open nope.inc");
  EXPECT_FALSE(parse_zone("$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\n$INCLUDE a.inc\n", "example.com", "z.db").ok());
  // d1.inc includes d2.inc includes ... : with z.db, the 16th file may include no more.
  const ZoneIncludeReader deep = [](const std::string& name, const SourceLocation&) -> Result<ZoneText> {
    const int n = std::stoi(name.substr(1));
    return ZoneText{name, fmt::format("$INCLUDE d{}.inc\n", n + 1)};
  };
  auto too_deep = parse_zone("$TTL 300\n@ IN SOA ns hm 1 2 3 4 5\n$INCLUDE d1.inc\n", "example.com", "z.db", deep);
  ASSERT_FALSE(too_deep.ok());
  EXPECT_EQ(format_diagnostic(too_deep.errors()[0]), "d15.inc:1:1: error: $INCLUDE: included files nest deeper than 16 levels");
}

}  // namespace
}  // namespace ct
