#include "cli/frontend_inputs.h"

#include <iostream>
#include <optional>
#include <utility>

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

}  // namespace ct::cli
