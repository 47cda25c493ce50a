#include "cli/frontend_inputs.h"

#include <iostream>
#include <optional>
#include <utility>

#include "core/clock_text.h"
#include "core/text.h"
#include "io/dns_files.h"
#include "io/manifest_files.h"

namespace ct::cli {

Result<FrontendModel> load_frontend_model(const std::vector<std::string>& manifests, const std::string& named_conf,
                                          const Context& context) {
  auto m = load_manifests(manifests);
  if (!m) return m.errors();
  std::cerr << format_diagnostics(m->warnings);
  std::optional<DnsModel> dns;
  if (!named_conf.empty()) {
    auto d = load_dns(named_conf);
    if (!d) return d.errors();
    std::cerr << format_diagnostics(d->warnings);
    dns = std::move(d).value();
  }
  std::optional<Topology> topology;
  if (context.fabric) topology = context.fabric->topology();
  FrontendModel model = build_frontend_model(std::move(m).value(), std::move(dns), std::move(topology));
  if (context.raw_spec) model.frontend_where = context.raw_spec->frontend.where;
  return model;
}

Diagnostics set_study_clock(FrontendModel& model, const std::optional<std::string>& now) {
  if (!now) return {};
  const auto ms = rfc3339_ms(*now);
  if (!ms || *ms < 0 || *ms > kMaxTimeMs) {
    return {Diagnostic{SourceLocation{"command line", 0, 0}, "--now",
                       "'" + excerpt(*now) + "' is not a time: give RFC 3339, e.g. 2026-12-06T09:00:00Z, from 1970 to the year 9999"}};
  }
  model.now_ms = *ms;
  return {};
}

}  // namespace ct::cli
