#include "fabric/fabric.h"

#include <algorithm>

#include <fmt/format.h>

#include "routing/port_address.h"
#include "topology/builder.h"

namespace ct {

Fabric::Parts::Parts(const ValidSpec& s, const Catalog& c, Topology t, EcmpConfig e, Protocol p)
    : spec(s),
      catalog(c),
      topology(std::move(t)),
      ecmp(std::move(e)),
      forwarding(topology),
      hashes(topology, ecmp),
      walker(forwarding, hashes),
      names(topology),
      protocol(p) {}

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
  if (!errors.empty()) return errors;
  Topology topology = build_topology(spec, catalog);
  if (!addressable(topology)) {
    return Diagnostic{{spec.file, 0, 0}, "nodes.count",
                      "the fabric exceeds the address plan (<= 65,536 hosts, 16 rails, 16 planes)"};
  }
  return Fabric(std::make_unique<const Fabric::Parts>(spec, catalog, std::move(topology), std::move(ecmp).value(),
                                                        protocol.value()));
}

}  // namespace ct
