// Manifest loading: multi-document files, unknown kinds listed, unknown fields warned about with
// their line, and bad input rejected with file:line:column and the field.
#include "frontend/manifest_parser.h"
#include "frontend/manifest_values.h"

#include <gtest/gtest.h>

namespace ct {
namespace {

TEST(Manifests, KindsUnknownKindsAndWarnings) {
  const std::string text =
      "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports: [{port: 80}]\n  colour: blue\n"
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n";
  auto m = parse_manifests({{"f.yaml", text}});
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->services.size(), 1u);
  EXPECT_EQ(m->services[0].meta.ns, "default");
  EXPECT_EQ(m->services[0].meta.where.line, 1);
  ASSERT_EQ(m->unknown.size(), 1u);
  EXPECT_EQ(m->unknown[0].meta.kind, "ConfigMap");
  EXPECT_EQ(m->unknown[0].meta.where.line, 8);  // the second document starts on line 8
  ASSERT_EQ(m->warnings.size(), 1u);
  EXPECT_EQ(format_diagnostic(m->warnings[0]), "f.yaml:6:3: warning: spec.colour: unknown field (ignored)");
}

TEST(Manifests, DuplicateObjectIsAnError) {
  const std::string doc = "apiVersion: v1\nkind: Service\nmetadata: {name: a, namespace: x}\n";
  auto m = parse_manifests({{"a.yaml", doc}, {"b.yaml", doc}});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(format_diagnostic(m.errors()[0]),
            "b.yaml:1:1: error: metadata.name: duplicate object Service x/a (first defined at a.yaml:1)");
}

TEST(Manifests, SyntaxAndTypeErrorsNameTheLine) {
  auto m = parse_manifests({{"s.yaml", "kind: Service\nmetadata: {name: a\n"}});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.errors()[0].where.file, "s.yaml");
  EXPECT_GT(m.errors()[0].where.line, 0);
  auto t = parse_manifests({{"t.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  ports: [{port: eighty}]\n"}});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(format_diagnostic(t.errors()[0]), "t.yaml:5:18: error: spec.ports[].port: expected an integer, got 'eighty'");
  auto u = parse_manifests({{"u.yaml", "apiVersion: v1\nmetadata: {name: a}\n"}});
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.errors()[0].field, "kind");
}

// The bounds of the project's YAML reader hold for manifests too (the fuzz test found an alias bomb
// that took over 20 s): 9 levels of 9 aliases = 9^9 nodes once expanded, over the 1,000,000 allowed;
// a byte 0xFF in a name is not UTF-8. Each is an error at its line, nothing is half-read.
TEST(Manifests, AliasBombAndInvalidUtf8AreRefused) {
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 9; ++level) {
    bomb += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int k = 0; k < 9; ++k) bomb += (k ? ", *a" : "*a") + std::to_string(level - 1);
    bomb += "]\n";
  }
  auto m = parse_manifests({{"bomb.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n" + bomb}});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.errors()[0].message.find("alias bomb"), std::string::npos) << m.errors()[0].message;
  EXPECT_GT(m.errors()[0].where.line, 3);
  auto u = parse_manifests({{"u.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: \"a\xff\"}\n"}});
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.errors()[0].where.line, 3);
  EXPECT_NE(u.errors()[0].message.find("invalid UTF-8 (byte 0xFF"), std::string::npos) << u.errors()[0].message;
}

// The value grammars the API server checks (manifest_values.h), case by case: "" is valid, else
// the rule broken. Quantities: one suffix at most, so 1e400Gi is no quantity; 1e400 is one, but past
// 2^63 - 1 (about 9.2e18); 8Ei = 2^63 exactly is one too many, 7Ei fits.
TEST(ManifestValues, QuantitiesFollowTheApiGrammarAndFitInt64) {
  for (const char* ok : {"60Gi", "1", "0.5", ".5", "5.", "100m", "1e3", "1E-3", "+2k", "7Ei", "0e999999"}) {
    EXPECT_EQ(quantity_problem(ok), "") << ok;
  }
  EXPECT_NE(quantity_problem("60Gallons").find("'Gallons' is not a suffix"), std::string::npos);
  EXPECT_NE(quantity_problem("1e400Gi").find("'e400Gi' is not a suffix"), std::string::npos);
  EXPECT_NE(quantity_problem("1e400").find("too large"), std::string::npos);
  EXPECT_NE(quantity_problem("8Ei").find("too large"), std::string::npos);
  EXPECT_EQ(quantity_problem("-1Gi"), "must not be negative");
  for (const char* bad : {"", "Gi", ".", "1.2.3", "1 Gi", "0x10"}) EXPECT_NE(quantity_problem(bad), "") << bad;
}

// DNS-1123: a label is 1..63 of [a-z0-9-] with a letter or digit at each end; a subdomain 1..253 of
// such labels joined by dots. Hostnames (Gateway API) may start with "*." and are no IP address.
TEST(ManifestValues, NamesAndHostnamesFollowDns1123) {
  EXPECT_EQ(dns_label_problem(std::string(63, 'a')), "");
  EXPECT_NE(dns_label_problem(std::string(64, 'a')).find("64 characters, more than the 63"), std::string::npos);
  for (const char* bad : {"", "-a", "a-", "a.b", "A", "a_b"}) EXPECT_NE(dns_label_problem(bad), "") << bad;
  const std::string label(63, 'a');
  const std::string longest = label + "." + label + "." + label + "." + std::string(61, 'a');  // 253
  EXPECT_EQ(dns_subdomain_problem(longest), "");
  EXPECT_NE(dns_subdomain_problem(longest + "a").find("254 characters"), std::string::npos);
  EXPECT_NE(dns_subdomain_problem("a..b"), "");
  EXPECT_EQ(hostname_problem("*.example.com", true), "");
  EXPECT_NE(hostname_problem("*.example.com", false), "");
  EXPECT_NE(hostname_problem("a.*.com", true), "");
  EXPECT_EQ(hostname_problem("192.0.2.1", true), "an IP address is not a hostname");
  EXPECT_NE(hostname_problem("example.com:443", true), "");
}

// IPv4 octets are 0..255; a pool is a CIDR with a prefix of /0../32 or a range low-high.
TEST(ManifestValues, AddressesAndPools) {
  EXPECT_EQ(ipv4_problem("192.0.2.255"), "");
  for (const char* bad : {"192.0.2.311", "192.0.2", "192.0.2.1.1", "192.0.2.-1", ""}) EXPECT_NE(ipv4_problem(bad), "") << bad;
  for (const char* ok : {"198.51.100.10/32", "198.51.100.0/24", "0.0.0.0/0", "198.51.100.10-198.51.100.20", "2001:db8::/64"}) {
    EXPECT_EQ(pool_entry_problem(ok), "") << ok;
  }
  EXPECT_NE(pool_entry_problem("198.51.100.10/33").find("'/33'"), std::string::npos);
  EXPECT_NE(pool_entry_problem("198.51.100.20-198.51.100.10").find("above its last"), std::string::npos);
  for (const char* bad : {"198.51.100.10", "198.51.100.300/24", "198.51.100.0/", "198.51.100.0/2x"}) {
    EXPECT_NE(pool_entry_problem(bad), "") << bad;
  }
}

}  // namespace
}  // namespace ct

namespace ct {
namespace {

// Issue 25: a Certificate's renewal fields (what `kubectl get certificate -o yaml` carries), read
// and range-checked at their lines: Go durations of at least 1 h (duration) and 5 min
// (renewBefore), renewBefore shorter than duration, RFC 3339 dates in order.
std::string dated_certificate(const std::string& spec_extra, const std::string& status) {
  return "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: c, namespace: n}\nspec:\n  secretName: s\n"
         "  issuerRef: {name: ca, kind: ClusterIssuer}\n" +
         spec_extra + "status:\n" + status;
}

TEST(Manifests, CertificateRenewalFieldsAreReadAndRangeChecked) {
  auto ok = parse_manifests({{"c.yaml", dated_certificate("  duration: 2160h0m0s\n  renewBefore: 360h\n",
                                                          "  notBefore: '2026-12-01T00:00:00Z'\n  notAfter: '2027-03-01T00:00:00Z'\n"
                                                          "  renewalTime: '2027-02-14T00:00:00Z'\n")}});
  ASSERT_TRUE(ok.ok()) << format_diagnostics(ok.errors());
  const Certificate& c = ok->certificates.at(0);
  EXPECT_EQ(*c.duration_s, 2160 * 3600.0);
  EXPECT_EQ(*c.renew_before_s, 360 * 3600.0);
  EXPECT_EQ(*c.not_before_ms, 1796083200000);
  EXPECT_EQ(*c.not_after_ms - *c.not_before_ms, 90LL * 86400000);
  EXPECT_EQ(*c.not_after_ms - *c.renewal_ms, 15LL * 86400000);

  const auto error_of = [](const std::string& text) {
    auto m = parse_manifests({{"c.yaml", text}});
    return m.ok() ? std::string("no error") : format_diagnostic(m.errors().at(0));
  };
  EXPECT_EQ(error_of(dated_certificate("  duration: 30m\n", "  {}\n")),
            "c.yaml:7:13: error: spec.duration: 1800 s is shorter than cert-manager's minimum, 1 h");
  EXPECT_EQ(error_of(dated_certificate("  duration: 24h\n  renewBefore: 48h\n", "  {}\n")),
            "c.yaml:8:16: error: spec.renewBefore: must be shorter than spec.duration (cert-manager refuses the Certificate)");
  EXPECT_EQ(error_of(dated_certificate("  renewBefore: ninety days\n", "  {}\n")),
            "c.yaml:7:16: error: spec.renewBefore: 'ninety days' is not a duration: a Go duration such as 2160h, 2160h0m0s or 90m");
  EXPECT_EQ(error_of(dated_certificate("", "  notBefore: '2027-03-01T00:00:00Z'\n  notAfter: '2026-12-01T00:00:00Z'\n")),
            "c.yaml:9:13: error: status.notAfter: must be after status.notBefore");
  EXPECT_EQ(error_of(dated_certificate("", "  notAfter: '2026-02-30T00:00:00Z'\n")),
            "c.yaml:8:13: error: status.notAfter: '2026-02-30T00:00:00Z' is not a time: RFC 3339 such as 2026-12-06T09:00:00Z, from 1970 to "
            "the year 9999");
  EXPECT_EQ(error_of(dated_certificate("", "  notAfter: '2026-12-01T00:00:00Z'\n  renewalTime: '2027-01-01T00:00:00Z'\n")),
            "c.yaml:9:16: error: status.renewalTime: must fall within [status.notBefore, status.notAfter]");
}

}  // namespace
}  // namespace ct
