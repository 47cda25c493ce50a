// Which single element would hurt most (`clustertwin spof`): every element of failure_set.h taken
// away in turn at t = 0 (each node, disk, frontend switch, node uplink, BGP peer, DNS server,
// issuer and MetalLB address pool: a pool does not fail as equipment does, it is deleted or
// emptied by a change, and a Service whose address only that pool gives loses it), its failure
// timeline run (failure_timeline.h, against requests traced once), and the elements ranked by what
// they cost:
//   1 apps down for ever (no replacement, data lost, nothing to fail over to), more first
//   2 apps lost x time lost: the apps' downtimes summed (app-seconds), more first
//   3 the layer's order above, then the name
// An element whose failure downs an app is a single point of failure (SPOF). The SPOFs are then
// named plainly per layer, with what makes them one read from the model: a node holding every pod
// of a workload ("every Gateway replica on node-0", "the login app has one pod and no
// PodDisruptionBudget"), a volume whose only copy is on a disk ("model-weights has one replica"),
// one border router, one name server, one address pool, one frontend switch above the nodes, an
// issuer whose certificates fail to renew in its outage (from when their TLS fails; the renewals
// are placed against --now, cert_renewal.h: without it, or without dated certificates, the issuer
// layer says it is not modelled).
// Two structural layers are named without a removal of their own: the Gateway replicas (a data
// plane with one pod, or all its pods on one node) and the volumes (one replica); their nodes'
// removals carry the cost. A layer with none says so; a layer the inputs do not model (no --spec:
// no switches or links; no --dns: no name servers) says that instead.
// Pairs: the `pairs` top-ranked elements (SPOFs or not) are taken two at a time; a pair is listed
// when together they down an app that neither downs alone (a double failure the design does not
// survive).
#pragma once

#include <string>
#include <vector>

#include "survival/failure_timeline.h"

namespace ct {

struct SpofCandidate {
  Failure element;
  int apps_lost = 0;
  int apps_for_ever = 0;
  double app_seconds = 0;  // the finite downtimes summed
  double longest_s = 0;    // the longest finite downtime
  bool data_lost = false;
  std::vector<std::string> apps;  // the apps it downs
  int certificates_failing = 0;    // an issuer: its certificates whose renewal falls in the outage
  double first_expiry_s = 0;       // an issuer: when the first of them expires (TLS fails)
  [[nodiscard]] bool spof() const { return apps_lost > 0 || data_lost; }
};

struct SpofLayer {
  std::string layer;  // "node", "disk", "frontend switch", ..., "Gateway replica", "volume"
  int elements = 0;
  bool modelled = true;
  std::string why_not;  // when not modelled
  std::vector<std::string> spofs;  // named plainly, ranked
};

struct SpofPair {
  Failure a, b;
  int apps_lost = 0;
  int apps_for_ever = 0;
  double app_seconds = 0;
  std::vector<std::string> new_apps;  // down with both, with neither alone
};

struct SpofReport {
  std::vector<SpofCandidate> ranked;  // every element, by the ranking above
  std::vector<SpofLayer> layers;
  std::vector<SpofPair> pairs;  // the pairs with new apps down, by the same ranking
  int pairs_tried = 0;
  int apps_total = 0;
  std::size_t requests = 0;
  [[nodiscard]] int spof_count() const;
};

SpofReport spof_study(const FrontendModel& model, const LifecycleTimers& timers, int pairs_top);

// One line: "2 apps x 730 s", "14 apps for ever", "no app".
std::string spof_cost(int apps_lost, int apps_for_ever, double app_seconds);

}  // namespace ct
