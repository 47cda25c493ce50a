#include "fabric/fabric.h"

#include <algorithm>
#include <cassert>

#include <fmt/format.h>

#include "routing/port_address.h"
#include "topology/builder.h"

namespace ct {

Fabric::Routing::Routing(const Topology& topology, const EcmpConfig& ecmp)
    : forwarding(topology), hashes(topology, ecmp), walker(forwarding, hashes) {}

Fabric::Parts::Parts(const ValidSpec& s, const Catalog& c, Topology t, EcmpConfig e)
    : spec(s), catalog(c), topology(std::move(t)), ecmp(std::move(e)), names(topology) {}

const Fabric::Routing& Fabric::routing() const {
  std::call_once(parts_->routed, [this] { parts_->routing = std::make_unique<const Routing>(parts_->topology, parts_->ecmp); });
  return *parts_->routing;
}

Fabric::Fabric(std::unique_ptr<const Parts> parts) : parts_(std::move(parts)) {}
Fabric::Fabric(Fabric&&) noexcept = default;
Fabric& Fabric::operator=(Fabric&&) noexcept = default;
Fabric::~Fabric() = default;

Result<Fabric> build_fabric(const ValidSpec& spec, const Catalog& catalog) {
  Diagnostics errors = check_buildable(spec);
  auto ecmp = resolve_ecmp_config(spec.routing);
  if (!ecmp) errors.insert(errors.end(), ecmp.errors().begin(), ecmp.errors().end());
  // Every port has an address (routing/port_address.h) while there are at most 2^32 of them, the
  // count 32-bit vertex ids can number: checked on the spec, before anything is built.
  constexpr long double kMaxPorts = 4294967296.0L;
  const long double ports = static_cast<long double>(spec.node_count) * spec.backend.ports_per_host *
                            std::max(1, spec.backend.planes);
  if (ports > kMaxPorts) {
    errors.push_back(Diagnostic{{spec.file, 0, 0}, "nodes.count",
                                fmt::format("{} nodes x {} backend NICs x {} planes = {:.0f} backend ports; a fabric holds "
                                            "at most 2^32 (one 32-bit id and address each)",
                                            spec.node_count, spec.backend.ports_per_host,
                                            std::max(1, spec.backend.planes), static_cast<double>(ports))});
  }
  if (!errors.empty()) return errors;
  Topology topology = build_topology(spec, catalog);
  assert(addressable(topology));
  return Fabric(std::make_unique<const Fabric::Parts>(spec, catalog, std::move(topology), std::move(ecmp).value()));
}

Fabric fabric_over(const ValidSpec& spec, const Catalog& catalog, Topology topology, EcmpConfig ecmp) {
  return Fabric(std::make_unique<const Fabric::Parts>(spec, catalog, std::move(topology), std::move(ecmp)));
}

}  // namespace ct
