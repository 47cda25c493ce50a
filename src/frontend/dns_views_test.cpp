// Split-view DNS worked by hand against the BIND grammar and RFC 1034/1035 rules quoted in
// dns_views.h. The real named is run on the same files in tests/frontend/bind_dns_test.cpp.
#include "frontend/dns_views.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ct
