// Routing a batch of a workload's network flows on the fabric, for every engine. On a fabric that
// a subnet manager routes (fabric.lfts(): an InfiniBand subnet read from ibnetdiscover output),
// each flow follows the LFTs, one path, whatever the scenario's path model. Otherwise the paths ECMP,
// spraying or adaptive routing (the scenario's PathModel, through routing/load_balancing.h) give
// over the fabric's forwarding state and hash configuration, or over the state rebuilt once routing
// has converged around failed links (fault_timeline.h).
//
// A batch is routed together (a step of one operation: adaptive balances a batch's flows against
// each other). Adaptive routing places flows one after the other, each on the least-loaded members,
// so it takes them in an order of what they are (ends, source port, bytes, start; the max-min weight
// where the engine has one, the flow engine; then their order), never of the order the input listed
// them in: a shuffled flow table routes as the original
// (docs/models/ecmp.md, "Source ports of simulated flows"). Hashing and spraying route each flow
// alone, in flow order. A flow's key is its ends' port addresses (the vertex ids on a fabric too
// large to address) and its UDP source port; draws use the scenario's seed.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/ids.h"
#include "fabric/fabric.h"
#include "routing/flow_routes.h"
#include "routing/forwarding_state.h"
#include "routing/load_balancing.h"
#include "routing/path_walker.h"
#include "traffic/scenario.h"
#include "workload/workload.h"

namespace ct {

class FlowRouter {
 public:
  // `max_min_weights`: the flow engine's, one per workload flow (engine.h FlowOptions), or empty.
  // PRECONDITION: fabric, scenario, workload and the weights outlive the router.
  FlowRouter(const Fabric& fabric, const Scenario& scenario, const Workload& workload,
             std::span<const double> max_min_weights = {});

  // Routes the network flows `flows` (workload indices) together; `position[k]`: flows[k]'s index
  // in the result (its one sub-flow). The result's entered groups are left empty.
  FlowRoutes route(std::span<const std::uint32_t> flows, std::vector<std::uint32_t>& position) const;
  // Whether each flow's path is its own (hashing, spraying, the LFTs): a batch routed in parts,
  // in order, gives the paths of the batch routed whole. Adaptive routing balances a batch's
  // flows against each other, and flowlets and extra queue pairs draw by a flow's index within
  // the call: only the whole batch gives their paths.
  [[nodiscard]] bool routes_each_alone() const {
    return fabric_.lfts() != nullptr || scheme_ == Scheme::kHash || scheme_ == Scheme::kSpray;
  }

  // Routing has converged with `down` (links, increasing) out of service: later routes use the
  // forwarding state rebuilt without them.
  void converge(const std::vector<LinkId>& down);

  // The forwarding state routes are walked over now (the fabric's, or the converged one); whether
  // the scenario sprays (routing/load_balancing.h sprayed_path: the packet engine's paths).
  [[nodiscard]] const PathWalker& walker() const { return *walker_; }
  [[nodiscard]] bool spraying() const { return scheme_ == Scheme::kSpray; }

 private:
  // One sub-flow per flow along the subnet manager's tables; `order` as in route().
  FlowRoutes route_by_lfts(const LftForwarding& lfts, std::span<const std::uint32_t> flows,
                           const std::vector<std::uint32_t>& order, std::vector<std::uint32_t>& position) const;
  [[nodiscard]] FlowKey key_of(VertexId src, VertexId dst, std::uint16_t src_udp_port) const;

  const Fabric& fabric_;
  const Topology& t_;
  const Workload& w_;
  std::span<const double> weights_;
  Scheme scheme_;
  std::uint64_t seed_;
  bool addressable_ = false;
  const PathWalker* walker_;  // the fabric's, until routing converges after a fault
  std::unique_ptr<ForwardingState> converged_forwarding_;
  std::unique_ptr<PathWalker> converged_walker_;
};

}  // namespace ct
