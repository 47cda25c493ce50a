#include "fabric/fabric.h"

#include <algorithm>
#include <cassert>

#include <fmt/format.h>

#include "routing/port_address.h"
#include "topology/builder.h"

namespace ct {

Fabric::Routing::Routing(const Topology& topology, const EcmpConfig& ecmp)
    : forwarding(topology), hashes(topology, ecmp), walker(forwarding, hashes) {}

Fabric::Parts::Parts(const ValidSpec& s, const Catalog& c, Topology t, EcmpConfig e, Protocol p)
    : spec(s), catalog(c), topology(std::move(t)), ecmp(std::move(e)), names(topology), protocol(p) {}

const Fabric::Routing& Fabric::routing() const {
  std::call_once(parts_->routed, [this] { parts_->routing = std::make_unique<const Routing>(parts_->topology, parts_->ecmp); });
  return *parts_->routing;
}

Fabric::Fabric(std::unique_ptr<const Parts> parts) : parts_(std::move(parts)) {}
Fabric::Fabric(Fabric&&) noexcept = default;
Fabric& Fabric::operator=(Fabric&&) noexcept = default;
Fabric::~Fabric() = default;

namespace {

bool runs(const std::vector<Protocol>& protocols, Protocol p) {
  return protocols.empty() || std::find(protocols.begin(), protocols.end(), p) != protocols.end();
}

std::string protocol_name(Protocol p) { return p == Protocol::kEthernet ? "Ethernet" : "InfiniBand"; }

}  // namespace

Result<Protocol> backend_protocol(const ValidSpec& spec) {
  const SwitchModel& sw = spec.backend.switch_model;
  const NicModel& nic = spec.backend.nic;
  for (Protocol p : {Protocol::kEthernet, Protocol::kInfiniband}) {
    if (runs(sw.protocols, p) && runs(nic.protocols, p)) return p;
  }
  return Diagnostic{spec.backend.switch_where, "backend.switch",
                    fmt::format("{} is an {} switch but the backend NIC of {} ({}) runs {}: no protocol in common",
                                sw.id, protocol_name(sw.protocols.front()), spec.node.id, nic.id,
                                protocol_name(nic.protocols.front()))};
}

std::optional<Diagnostic> protocol_mismatch(const Fabric& fabric, Protocol wanted, const std::string& command,
                                            Severity severity) {
  if (fabric.protocol() == wanted) return std::nullopt;
  const ValidBackend& b = fabric.spec().backend;
  const std::string message =
      wanted == Protocol::kEthernet
          ? fmt::format("{} is an InfiniBand switch: on this fabric the subnet manager's forwarding tables decide "
                        "paths (clustertwin ib route), not ECMP hashing of RoCE/UDP headers; `{}` models Ethernet "
                        "ECMP, so its paths are what an Ethernet fabric of this shape would do",
                        b.switch_model.id, command)
          : fmt::format("{} is an Ethernet switch: this fabric runs RoCE with ECMP hashing (clustertwin hash), and "
                        "has no InfiniBand subnet manager; `{}` needs InfiniBand switches (e.g. qm9700, q3400)",
                        b.switch_model.id, command);
  return Diagnostic{b.switch_where, "backend.switch", message, severity};
}

Result<Fabric> build_fabric(const ValidSpec& spec, const Catalog& catalog) {
  Diagnostics errors = check_buildable(spec);
  auto protocol = backend_protocol(spec);
  if (!protocol) errors.insert(errors.end(), protocol.errors().begin(), protocol.errors().end());
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
  return Fabric(std::make_unique<const Fabric::Parts>(spec, catalog, std::move(topology), std::move(ecmp).value(),
                                                        protocol.value()));
}

Fabric fabric_over(const ValidSpec& spec, const Catalog& catalog, Topology topology, EcmpConfig ecmp) {
  // The hand-made fixtures are ECMP fabrics; a spec whose hardware shares no protocol is Ethernet too.
  auto protocol = backend_protocol(spec);
  return Fabric(std::make_unique<const Fabric::Parts>(spec, catalog, std::move(topology), std::move(ecmp),
                                                      protocol ? protocol.value() : Protocol::kEthernet));
}

Fabric fabric_with_lfts(const ValidSpec& spec, const Catalog& catalog, Topology topology,
                        const std::function<LftForwarding(const Topology&)>& tables) {
  auto parts = std::make_unique<Fabric::Parts>(spec, catalog, std::move(topology), EcmpConfig{}, Protocol::kInfiniband);
  parts->lfts.emplace(tables(parts->topology));
  return Fabric(std::move(parts));
}

}  // namespace ct
