// The SARIF 2.1.0 log of `clustertwin lint` on examples/platform-traps, checked by structure: the
// properties the OASIS standard requires (sarifLog: version "2.1.0", runs; run: tool; tool:
// driver; toolComponent: name; reportingDescriptor: id; result: message with text; and, where
// present, location -> physicalLocation -> artifactLocation uri and region startLine >= 1) and the
// ones code-scanning UIs read (rules' help and defaultConfiguration level, results' ruleId, level
// one of error/warning/note, ruleIndex pointing at the rule with that id). No SARIF JSON schema is
// packaged by Debian 12, so the schema itself is not run; these are the fields it requires.
// The text and JSON reports are compared whole by the CLI goldens (tests/golden/cli/lint-*).
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/dns_files.h"
#include "io/manifest_files.h"
#include "lint/lint.h"
#include "report/lint_report.h"
#include "support/test_paths.h"

namespace ct {
namespace {

LintReport lint_traps() {
  const std::string dir = testing_support::source_dir() + "/examples/platform-traps";
  auto m = load_manifests({dir + "/manifests"});
  EXPECT_TRUE(m.ok());
  auto dns = load_dns(dir + "/dns/named.conf");
  EXPECT_TRUE(dns.ok());
  const FrontendModel model = build_frontend_model(std::move(m).value(), std::move(dns).value(), std::nullopt);
  return run_lint(model);
}

TEST(LintSarif, HasTheFieldsSarif210AndCodeScanningRequire) {
  const LintReport report = lint_traps();
  ASSERT_FALSE(report.findings.empty());
  const nlohmann::json log = nlohmann::json::parse(lint_sarif(report, "9.9.9"));
  EXPECT_EQ(log.at("version"), "2.1.0");
  EXPECT_EQ(log.at("$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(log.at("runs").size(), 1U);
  const auto& run = log.at("runs")[0];
  const auto& driver = run.at("tool").at("driver");
  EXPECT_EQ(driver.at("name"), "clustertwin lint");
  EXPECT_EQ(driver.at("version"), "9.9.9");
  const auto& rules = driver.at("rules");
  ASSERT_EQ(rules.size(), lint_rules().size());
  std::set<std::string> ids;
  for (const auto& r : rules) {
    EXPECT_TRUE(ids.insert(r.at("id").get<std::string>()).second);
    EXPECT_FALSE(r.at("shortDescription").at("text").get<std::string>().empty());
    EXPECT_FALSE(r.at("help").at("text").get<std::string>().empty());
    EXPECT_TRUE(std::set<std::string>({"error", "warning", "note"}).contains(r.at("defaultConfiguration").at("level").get<std::string>()));
  }
  const auto& results = run.at("results");
  ASSERT_EQ(results.size(), report.findings.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& res = results[i];
    const std::string id = res.at("ruleId");
    EXPECT_EQ(id, report.findings[i].rule);
    EXPECT_EQ(rules.at(res.at("ruleIndex").get<std::size_t>()).at("id"), id);
    EXPECT_EQ(res.at("level"), sarif_level(report.findings[i].severity));
    EXPECT_FALSE(res.at("message").at("text").get<std::string>().empty());
    ASSERT_EQ(res.at("locations").size(), 1U) << id;
    for (const char* key : {"locations", "relatedLocations"}) {
      if (!res.contains(key)) continue;
      for (const auto& loc : res.at(key)) {
        const auto& phys = loc.at("physicalLocation");
        const std::string uri = phys.at("artifactLocation").at("uri");
        EXPECT_TRUE(uri.find("examples/platform-traps/") != std::string::npos) << uri;
        EXPECT_GE(phys.at("region").at("startLine").get<int>(), 1);
      }
    }
  }
}

TEST(LintSarif, FiveTrapsPlantedFiveFound) {
  // The traps examples/platform-traps plants (each marked TRAP N in its files) against
  // examples/platform: every one is found, by the rule that names it.
  const LintReport r = lint_traps();
  std::set<std::string> rules;
  for (const auto& f : r.findings) rules.insert(f.rule);
  for (const char* rule : {"acme-http01-split-horizon", "longhorn-replicas-exceed-nodes", "gateway-one-node", "service-selects-nothing",
                           "cert-name-mismatch"}) {
    EXPECT_TRUE(rules.contains(rule)) << rule;
  }
}

}  // namespace
}  // namespace ct
