#include "report/lint_report.h"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/table.h"

namespace ct {

namespace {

std::string hours_text(double h) { return fmt::format("{:.1f}", h); }

std::string location_text(const SourceLocation& w) {
  if (w.file.empty()) return "(no file)";
  return w.line > 0 ? fmt::format("{}:{}", w.file, w.line) : w.file;
}

std::string summary_line(const LintReport& r) {
  const std::size_t high = r.count_at_least(LintSeverity::kHigh);
  const std::size_t medium = r.count_at_least(LintSeverity::kMedium) - high;
  const std::size_t low = r.findings.size() - high - medium;
  std::size_t complete = 0;
  for (const auto& a : r.checklist) complete += a.complete() ? 1 : 0;
  return fmt::format("Lint: {} finding(s) ({} high, {} medium, {} low), {} expected hours lost a year; checklist: {} of {} app(s) "
                     "complete{}",
                     r.findings.size(), high, medium, low, hours_text(r.expected_hours()), complete, r.checklist.size(),
                     r.dns_given ? "" : " (no --dns: DNS rules and the checklist's DNS step skipped)");
}

void append_checklist(const LintReport& r, std::string& out) {
  TextTable t({{"app"}, {"workload"}, {"service"}, {"route"}, {"certificate"}, {"dns"}}, "Publishing checklist (per hostname)");
  for (const auto& a : r.checklist) {
    std::vector<std::string> row{a.host};
    for (const auto& s : a.steps) row.push_back(to_string(s.status));
    t.add_row(std::move(row));
  }
  out += "\n" + t.render();
  for (const auto& a : r.checklist) {
    for (const auto& s : a.steps) {
      if (s.status != ChecklistStatus::kMissing && s.status != ChecklistStatus::kBroken) continue;
      out += fmt::format("  {} {} {}: {}\n    add: {}{}\n", a.host, s.step, to_string(s.status), s.detail, s.add,
                         s.where.file.empty() ? "" : " (at " + location_text(s.where) + ", " + s.object + ")");
    }
  }
}

}  // namespace

std::string sarif_level(LintSeverity s) {
  switch (s) {
    case LintSeverity::kHigh: return "error";
    case LintSeverity::kMedium: return "warning";
    case LintSeverity::kLow: return "note";
  }
  return "none";
}

std::string lint_text(const LintReport& r) {
  std::string out = summary_line(r) + "\n";
  if (!r.findings.empty()) {
    out += "Ranked by expected hours lost a year = the chance the trap bites in a year x the hours lost when it does "
           "(each rule's assumptions: --json, docs/models/lint.md)\n";
  }
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    const LintFinding& f = r.findings[i];
    out += fmt::format("\n{}. [{}] {}: {} h/yr ({} x {} h)\n   {}\n", i + 1, to_string(f.severity), f.rule, hours_text(f.expected_hours()),
                       fmt::format("{:g}", f.likelihood), fmt::format("{:g}", f.hours), f.title);
    for (std::size_t k = 0; k < f.objects.size(); ++k) {
      out += fmt::format("   {} {}  {}\n", k == 0 ? "at" : "  ", location_text(f.objects[k].where), f.objects[k].label);
    }
    out += "   consequence: " + f.consequence + "\n   fix: " + f.fix + "\n";
  }
  append_checklist(r, out);
  return out;
}

std::string lint_json(const LintReport& r) {
  nlohmann::json j;
  j["summary"] = {{"findings", r.findings.size()},
                  {"high", r.count_at_least(LintSeverity::kHigh)},
                  {"medium_or_higher", r.count_at_least(LintSeverity::kMedium)},
                  {"expected_hours_per_year", r.expected_hours()},
                  {"dns_given", r.dns_given},
                  {"spec_given", r.spec_given}};
  j["ranking"] = "expected hours lost a year = likelihood_per_year x hours_when_it_bites (each rule's basis); ties by severity, "
                 "rule id, then the first object's file and line";
  j["findings"] = nlohmann::json::array();
  for (std::size_t i = 0; i < r.findings.size(); ++i) {
    const LintFinding& f = r.findings[i];
    nlohmann::json objects = nlohmann::json::array();
    for (const auto& o : f.objects) objects.push_back({{"object", o.label}, {"file", o.where.file}, {"line", o.where.line}});
    j["findings"].push_back({{"rank", i + 1},
                             {"rule", f.rule},
                             {"severity", to_string(f.severity)},
                             {"title", f.title},
                             {"objects", objects},
                             {"consequence", f.consequence},
                             {"fix", f.fix},
                             {"likelihood_per_year", f.likelihood},
                             {"hours_when_it_bites", f.hours},
                             {"expected_hours_per_year", f.expected_hours()}});
  }
  j["rules"] = nlohmann::json::array();
  for (const LintRule& rule : lint_rules()) {
    j["rules"].push_back({{"id", rule.id},
                          {"family", rule.family},
                          {"severity", to_string(rule.severity)},
                          {"summary", rule.summary},
                          {"likelihood_per_year", rule.likelihood},
                          {"hours_when_it_bites", rule.hours},
                          {"basis", rule.basis}});
  }
  j["checklist"] = nlohmann::json::array();
  for (const auto& a : r.checklist) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : a.steps) {
      steps.push_back({{"step", s.step}, {"status", to_string(s.status)}, {"detail", s.detail}, {"add", s.add},
                       {"object", s.object}, {"file", s.where.file}, {"line", s.where.line}});
    }
    j["checklist"].push_back({{"host", a.host}, {"namespace", a.ns}, {"complete", a.complete()}, {"steps", steps}});
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

nlohmann::json sarif_location(const LintObject& o) {
  nlohmann::json region = {{"startLine", o.where.line > 0 ? o.where.line : 1}};
  if (o.where.column > 0) region["startColumn"] = o.where.column;
  return {{"physicalLocation", {{"artifactLocation", {{"uri", o.where.file}}}, {"region", region}}},
          {"message", {{"text", o.label}}}};
}

}  // namespace

std::string lint_sarif(const LintReport& r, const std::string& version) {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, std::size_t> index;
  for (const LintRule& rule : lint_rules()) {
    index[rule.id] = rules.size();
    rules.push_back({{"id", rule.id},
                     {"name", rule.id},
                     {"shortDescription", {{"text", rule.summary}}},
                     {"fullDescription", {{"text", rule.help}}},
                     {"help", {{"text", rule.help}}},
                     {"defaultConfiguration", {{"level", sarif_level(rule.severity)}}},
                     {"properties", {{"family", rule.family}, {"likelihood_per_year", rule.likelihood},
                                     {"hours_when_it_bites", rule.hours}, {"basis", rule.basis}}}});
  }
  nlohmann::json results = nlohmann::json::array();
  for (const LintFinding& f : r.findings) {
    nlohmann::json res = {{"ruleId", f.rule},
                          {"ruleIndex", index.at(f.rule)},
                          {"level", sarif_level(f.severity)},
                          {"message", {{"text", f.title + ". Consequence: " + f.consequence + ". Fix: " + f.fix}}},
                          {"properties", {{"expected_hours_per_year", f.expected_hours()}}}};
    nlohmann::json locations = nlohmann::json::array();
    nlohmann::json related = nlohmann::json::array();
    for (std::size_t k = 0; k < f.objects.size(); ++k) {
      if (f.objects[k].where.file.empty()) continue;
      nlohmann::json loc = sarif_location(f.objects[k]);
      if (locations.empty()) {
        locations.push_back(loc);
      } else {
        loc["id"] = related.size();
        related.push_back(loc);
      }
    }
    res["locations"] = locations;
    if (!related.empty()) res["relatedLocations"] = related;
    results.push_back(res);
  }
  nlohmann::json driver = {{"name", "clustertwin lint"}, {"version", version}, {"rules", rules}};
  nlohmann::json run = {{"tool", {{"driver", driver}}}, {"results", results}};
  nlohmann::json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"},
                        {"runs", nlohmann::json::array({run})}};
  return log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ct
