// clustertwin lint MANIFESTS... [--dns named.conf] [--spec SPEC] [--fail-on SEVERITY] [--json]
//                 [--sarif FILE] [-o FILE]
//   The traps planted in a platform's manifests and DNS views, ranked by expected hours lost, and
//   the publishing checklist per app (lint/lint.h); --sarif the same findings as SARIF 2.1.0
//   (report/lint_report.h). Exit 0 when no finding is at or above --fail-on, 1 when one is (or on
//   bad input), 2 on a bad command line.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/choice_option.h"
#include "cli/command.h"
#include "cli/frontend_inputs.h"
#include "lint/lint.h"
#include "report/lint_report.h"

namespace ct::cli {
namespace {

struct LintOptions {
  std::vector<std::string> manifests;
  std::string dns;
  std::string fail_on = "low";
  bool json = false;
  std::string sarif;
  std::string output;
};

int run_lint_command(const LintOptions& o, const Context& context) {
  auto loaded = load_frontend_model(o.manifests, o.dns, context);
  if (!loaded) return report_errors(loaded.errors());
  const FrontendModel& model = loaded.value();
  const LintReport report = run_lint(model);
  OutputSet outputs;
  const bool sarif_owns_stdout = o.sarif == "-" && o.output.empty();
  if (!sarif_owns_stdout) {
    outputs.stage(o.output, o.json ? lint_json(report) : lint_text(report), o.output.empty() ? kReportOnStdout : "-o");
  }
  if (!o.sarif.empty()) outputs.stage(o.sarif, lint_sarif(report, CT_VERSION), "--sarif");
  if (const int rc = commit(outputs); rc != kExitOk) return rc;
  LintSeverity floor = LintSeverity::kLow;
  if (o.fail_on == "none" || !parse_severity(o.fail_on, floor)) return kExitOk;
  return report.count_at_least(floor) > 0 ? kExitInputError : kExitOk;
}

}  // namespace

Runner setup_lint(CLI::App& app, Context& context) {
  auto o = std::make_shared<LintOptions>();
  app.add_option("manifests", o->manifests, "Kubernetes manifest files or folders")->required()->check(CLI::ExistingPath);
  app.add_option("--dns", o->dns, "BIND named.conf with the DNS views (zone files relative to its folder)")->check(CLI::ExistingFile);
  app.add_option("--spec", context.spec_path, "Cluster spec with the frontend network");
  add_choice_option(app, "--fail-on", o->fail_on, {"low", "medium", "high", "none"},
                    "Exit 1 when a finding is at or above this severity (none: never)")
      ->capture_default_str();
  app.add_flag("--json", o->json, "JSON instead of text (with every rule's assumptions)");
  app.add_option("--sarif", o->sarif, "Also write the findings as SARIF 2.1.0 to this file ('-': stdout, replacing the report unless -o names a file)");
  add_output_option(app, o->output);
  return [o](const Context& c) { return run_lint_command(*o, c); };
}

}  // namespace ct::cli
