// The Fabric stage: a validated spec built into everything the engines need, once.
//
//   Spec --validate--> ValidSpec --build_fabric--> Fabric --(workload)--> engines --> studies --> reports
//
// build_fabric() runs every check a design must pass before any engine sees it (the topology can
// be built from the catalog, the routing block resolves to an ECMP configuration, the backend ports
// fit 32-bit ids and the address plan of routing/port_address.h, which gives every such fabric an
// address per port) and returns all diagnostics at once. Every command that needs a fabric gets
// it from here, so a spec is accepted or refused the same way by `plan`, `topology`, `hash`,
// `simulate`, `reliability` and `ib`.
//
// The fabric's protocol follows from the hardware: the protocols both the backend switch model and
// the node's backend NIC run (catalog `protocols`). Ethernet: paths are chosen by ECMP hashing of
// RoCE (UDP) headers at every switch (`clustertwin hash`). InfiniBand: the subnet manager's linear
// forwarding tables decide paths (`clustertwin ib`). A pair with no protocol in common is refused,
// located at the spec's backend.switch; a pair that shares both (no such switch is in the catalog)
// is taken as Ethernet. A catalog entry that states no protocols runs either.
//
// A Fabric holds the topology, the resolved ECMP configuration, the healthy forwarding state, the
// per-switch hash functions, a path walker over them, and the name directory (fabric/name_directory.h).
// A fabric read from the wire (an InfiniBand subnet in ibnetdiscover format, ib/simulation_fabric.h)
// also holds the subnet manager's forwarding tables (fabric/lft_forwarding.h): they, not ECMP,
// decide its paths, and lfts() says so to every engine (sim/flow_router.h).
//
// It is immutable and movable; the parts refer to each other by address, so they live on the heap
// and keep their addresses when the Fabric moves. The forwarding state, hashes and walker are built
// on first use (thread-safe), like the name directory's maps: `plan`, `topology`, `reliability` and
// `ib` never pay for them. Studies that fail links build their own ForwardingState over
// fabric.topology().
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "catalog/catalog.h"
#include "core/result.h"
#include "fabric/lft_forwarding.h"
#include "fabric/name_directory.h"
#include "routing/ecmp_config.h"
#include "routing/forwarding_state.h"
#include "routing/path_walker.h"
#include "routing/switch_hashes.h"
#include "spec/valid_spec.h"
#include "topology/topology.h"

namespace ct {

class Fabric {
 public:
  Fabric(Fabric&&) noexcept;
  Fabric& operator=(Fabric&&) noexcept;
  ~Fabric();

  [[nodiscard]] const ValidSpec& spec() const { return parts_->spec; }
  [[nodiscard]] const Catalog& catalog() const { return parts_->catalog; }
  [[nodiscard]] const Topology& topology() const { return parts_->topology; }
  [[nodiscard]] const EcmpConfig& ecmp() const { return parts_->ecmp; }
  [[nodiscard]] const ForwardingState& forwarding() const { return routing().forwarding; }
  [[nodiscard]] const SwitchHashes& hashes() const { return routing().hashes; }
  [[nodiscard]] const PathWalker& walker() const { return routing().walker; }
  [[nodiscard]] const NameDirectory& names() const { return parts_->names; }
  [[nodiscard]] Protocol protocol() const { return parts_->protocol; }
  // The subnet manager's tables that route this fabric, or null (ECMP over forwarding()).
  [[nodiscard]] const LftForwarding* lfts() const { return parts_->lfts ? &*parts_->lfts : nullptr; }

 private:
  friend Result<Fabric> build_fabric(const ValidSpec& spec, const Catalog& catalog);
  friend Fabric fabric_over(const ValidSpec& spec, const Catalog& catalog, Topology topology, EcmpConfig ecmp);
  friend Fabric fabric_with_lfts(const ValidSpec& spec, const Catalog& catalog, Topology topology,
                                 const std::function<LftForwarding(const Topology&)>& tables);
  struct Routing {
    Routing(const Topology& topology, const EcmpConfig& ecmp);
    ForwardingState forwarding;
    SwitchHashes hashes;
    PathWalker walker;
  };
  struct Parts {
    Parts(const ValidSpec& s, const Catalog& c, Topology t, EcmpConfig e, Protocol p);
    ValidSpec spec;
    Catalog catalog;
    Topology topology;
    EcmpConfig ecmp;
    NameDirectory names;
    mutable std::once_flag routed;
    mutable std::unique_ptr<const Routing> routing;
    Protocol protocol;
    std::optional<LftForwarding> lfts;
  };
  explicit Fabric(std::unique_ptr<const Parts> parts);
  [[nodiscard]] const Routing& routing() const;
  std::unique_ptr<const Parts> parts_;
};

// Every check of the build stage, all diagnostics at once (each located at the spec's field).
// POSTCONDITION: on success the topology is finalized and every part above is consistent with it.
Result<Fabric> build_fabric(const ValidSpec& spec, const Catalog& catalog);

// A fabric over a topology made by hand instead of by the builder: the tiny named fixtures of the
// model tests (two leaves, two spines, ...). `spec` gives the node model (its NVLink figure) and
// the names of the report; the topology and ECMP configuration are taken as given.
// PRECONDITION: topology.finalize() was called.
Fabric fabric_over(const ValidSpec& spec, const Catalog& catalog, Topology topology, EcmpConfig ecmp);
// An InfiniBand fabric routed by a subnet manager: `tables(topology)` gives its LFTs over the
// fabric's own topology (they refer to its vertices and links). The protocol is InfiniBand.
// PRECONDITION: topology.finalize() was called.
Fabric fabric_with_lfts(const ValidSpec& spec, const Catalog& catalog, Topology topology,
                        const std::function<LftForwarding(const Topology&)>& tables);
// The protocol the backend runs (the rule above), or a diagnostic located at backend.switch when
// the switch and the NIC share none.
Result<Protocol> backend_protocol(const ValidSpec& spec);

// nullopt when `command`, which models `wanted`, fits the fabric's protocol; else a diagnostic with
// `severity`, located at the spec's backend.switch, saying what decides paths on this fabric.
std::optional<Diagnostic> protocol_mismatch(const Fabric& fabric, Protocol wanted, const std::string& command,
                                            Severity severity);

}  // namespace ct
