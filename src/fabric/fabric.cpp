#include "fabric/fabric.h"

#include <fmt/format.h>

#include "routing/port_address.h"
#include "topology/builder.h"

namespace ct {

Fabric::Parts::Parts(const ValidSpec& s, const Catalog& c, Topology t, EcmpConfig e)
    : spec(s),
      catalog(c),
      topology(std::move(t)),
      ecmp(std::move(e)),
      forwarding(topology),
      hashes(topology, ecmp),
      walker(forwarding, hashes),
      names(topology) {}

Fabric::Fabric(std::unique_ptr<const Parts> parts) : parts_(std::move(parts)) {}
Fabric::Fabric(Fabric&&) noexcept = default;
Fabric& Fabric::operator=(Fabric&&) noexcept = default;
Fabric::~Fabric() = default;

Result<Fabric> build_fabric(const ValidSpec& spec, const Catalog& catalog) {
  Diagnostics errors = check_buildable(spec);
  auto ecmp = resolve_ecmp_config(spec.routing);
  if (!ecmp) errors.insert(errors.end(), ecmp.errors().begin(), ecmp.errors().end());
  if (!errors.empty()) return errors;
  Topology topology = build_topology(spec, catalog);
  if (!addressable(topology)) {
    return Diagnostic{{spec.file, 0, 0}, "nodes.count",
                      "the fabric exceeds the address plan (<= 65,536 hosts, 16 rails, 16 planes)"};
  }
  return Fabric(std::make_unique<const Fabric::Parts>(spec, catalog, std::move(topology), std::move(ecmp).value()));
}

Fabric fabric_over(const ValidSpec& spec, const Catalog& catalog, Topology topology, EcmpConfig ecmp) {
  return Fabric(std::make_unique<const Fabric::Parts>(spec, catalog, std::move(topology), std::move(ecmp)));
}

}  // namespace ct
