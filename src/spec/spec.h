// A cluster as the user wrote it: the parsed YAML, every field with the place it came from, nothing
// checked against the catalog yet. validate() (validate.h) turns it into a ValidSpec or into
// diagnostics; nothing downstream accepts a Spec.
//
// The YAML schema (see examples/ and docs/spec.md):
//   name: b300-dual-plane
//   nodes: {model: hgx-b300, count: 1024}
//   backend:
//     topology: rail-optimized | fat-tree | leaf-spine
//     planes: 1 | 2 | 4          # each backend NIC cage split into this many logical ports
//     tiers: 2 | 3
//     switch: sn5600             # catalog switch id
//     port_speed: 400G           # optional; default NIC speed / planes
//     oversubscription: [1, 1]   # down:up ratio per tier that has uplinks (leaf, then spine)
//     k: 4                       # fat-tree only: ports used per switch (default: the radix)
//     link_latency_ns: 100       # optional, per link, propagation + switching (default 0: not modelled)
//     cable_length_m: {leaf: 30, spine: 100, core: 500}   # optional, picks optics by reach
//     links:                     # optional extra cables between switches of ONE plane
//       - [plane0.spine.0, plane0.spine.1]
//   frontend:                    # optional, a separate network
//     nic: bluefield-3
//     speed: 200G
//     switch: sn5600
//     oversubscription: 3
//   routing: { ... }             # kept as YAML for the routing issues
//   reliability:                 # optional, for `clustertwin reliability` (docs/models/reliability.md)
//     job_gpus: 4096             # GPUs the job spans (default: all)
//     horizon_days: 30
//     checkpoint_hours: 2
//     restart_minutes: 5
//     comm_fraction: 1           # share of step time at the collective's (straggler's) pace
//     spare_hosts: 64
//     degraded: drain            # drain (at the next checkpoint) | continue
//     split: ecmp                # ecmp | adaptive: how traffic spreads over paths after a failure
//     afr: {nic: 0.003, link: 0.007, leaf: 0.006, spine: 0.006, core: 0.006}   # per element-year
//     repair_hours: {nic: 24, link: 4, leaf: 4, spine: 4, core: 4}
//   survival:                    # optional, the node lifecycle timers (docs/models/node-lifecycle.md)
//     node_monitor_grace_s: 40   # kube-controller-manager --node-monitor-grace-period
//     toleration_s: 300          # the default not-ready/unreachable tolerationSeconds
//     force_detach_s: 360        # the attach-detach controller's wait before a force detach
//     startup_s: 30              # image pull and start-up of a new pod, unless its workload says
//     longhorn_node_down_pod_deletion_policy: do-nothing   # or delete-statefulset-pod,
//                                # delete-deployment-pod, delete-both-statefulset-and-deployment-pod
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace ct {

template <typename T>
struct Located {
  T value{};
  SourceLocation where;  // the field's key (a list entry: the entry itself)
  bool present = false;  // the field was written in the file
};

struct NodesSpec {
  SourceLocation where;  // the `nodes:` key; line 0 when absent
  Located<std::string> model;
  Located<long long> count;
};

struct ExtraLinkSpec {
  SourceLocation where;    // the list entry
  Located<std::string> a;  // "plane<p>.<leaf|spine|core>.<index>"
  Located<std::string> b;
};

struct BackendSpec {
  SourceLocation where;  // the `backend:` key; line 0 when absent
  bool present = false;
  Located<std::string> topology;
  Located<long long> planes;
  Located<long long> tiers;
  Located<std::string> switch_model;
  Located<std::string> port_speed;  // as written, e.g. "400G"
  std::vector<Located<double>> oversubscription;
  SourceLocation oversubscription_where;  // the `oversubscription:` key; line 0 when absent
  Located<long long> k;
  Located<long long> link_latency_ns;
  Located<double> cable_length_leaf_m;
  Located<double> cable_length_spine_m;
  Located<double> cable_length_core_m;
  std::vector<ExtraLinkSpec> links;
};

struct FrontendSpec {
  SourceLocation where;  // the `frontend:` key
  bool present = false;
  Located<std::string> nic;
  Located<std::string> speed;
  Located<std::string> switch_model;
  Located<double> oversubscription;
};

// The `routing:` block (schema and reader: spec/routing_spec.h). Names of functions, fields and
// modes are resolved by the routing layer (routing/ecmp_config.h).
struct RoutingSpec {
  SourceLocation where;  // the `routing:` key; line 0 when absent
  bool present = false;
  SourceLocation ecmp_where;  // the `ecmp:` key; line 0 when absent
  Located<std::string> hash;
  std::vector<Located<std::string>> fields;
  SourceLocation fields_where;  // the `fields:` key; line 0 when absent
  Located<unsigned long long> seed;
  Located<std::string> seed_mode;
  Located<std::string> seed_input;
  Located<std::string> selection;
  Located<long long> linux_policy;
  Located<double> flowlet_gap_us;
  Located<long long> qps_per_connection;
};

// One figure per element kind of the failure model (catalog FailureElement).
struct ElementFiguresSpec {
  Located<double> nic, link, leaf, spine, core;
};

struct ReliabilitySpec {
  SourceLocation where;  // the `reliability:` key
  bool present = false;
  Located<long long> job_gpus;
  Located<double> horizon_days;
  Located<double> checkpoint_hours;
  Located<double> restart_minutes;
  Located<double> comm_fraction;
  Located<long long> spare_hosts;
  Located<std::string> degraded;
  Located<std::string> split;
  ElementFiguresSpec afr;           // failures per element-year, overriding the catalog
  ElementFiguresSpec repair_hours;  // mean time to repair, overriding the catalog
};

struct SurvivalSpec {
  SourceLocation where;  // the `survival:` key
  bool present = false;
  Located<double> node_monitor_grace_s;
  Located<double> toleration_s;
  Located<double> force_detach_s;
  Located<double> startup_s;
  Located<std::string> longhorn_pod_deletion_policy;
};

struct Spec {
  std::string file;
  Located<std::string> name;
  NodesSpec nodes;
  BackendSpec backend;
  FrontendSpec frontend;
  SourceLocation routing_where;
  RoutingSpec routing;  // the same block, read field by field
  ReliabilitySpec reliability;
  SurvivalSpec survival;
};

}  // namespace ct
