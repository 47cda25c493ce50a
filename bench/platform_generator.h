// A generated platform for the front door's benchmarks (bench_lint; the `spof` bench of issue 25
// reuses it): the shape of examples/platform at a larger size, as text that the real readers parse
// (manifests through parse_manifests, named.conf and zones through parse_named_conf/parse_zone).
//   nodes     `nodes` Nodes (10.20.x.y), the first 4 labelled ingress, every one with a Longhorn disk
//   gateway   Gateway infra/edge with an HTTP listener and one HTTPS listener for *.example.com
//             (a wildcard certificate from a CA issuer), its Envoy data plane (4 replicas, one per
//             ingress node, a PodDisruptionBudget) behind a LoadBalancer VIP, two BGP peers
//   apps      `routes` apps app-<i>: an HTTPRoute for app-<i>.example.com, a Service and a Deployment;
//             the first `volumes` apps are stateful (1 replica, Recreate, a ReadWriteOnce Longhorn
//             claim of 3 replicas), the others stateless with their share of the pods so that the
//             apps run `pods` pods in all
//   dns       `views` views (the first view-1 inside ranges, the last `any`), each with zone
//             example.com answering every app: a CNAME to gw in the inside views, the public address
//             in the last
// The default sizes are issue 25's: 200 nodes, 2,000 pods, 500 routes, 300 volumes, 3 views.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "frontend/request_trace.h"

namespace ct::bench {

struct PlatformSize {
  int nodes = 200;
  int pods = 2000;
  int routes = 500;
  int volumes = 300;
  int views = 3;
};

struct GeneratedPlatform {
  std::vector<ManifestSource> manifests;  // one file per kind group
  std::string named_conf;
  std::map<std::string, std::string> zones;  // zone file name -> text
};

GeneratedPlatform generate_platform(const PlatformSize& size = {});

// The generated platform parsed by the real readers into the model lint and trace take.
// PRECONDITION: the generator's text parses (aborts otherwise: a bug of the generator).
FrontendModel parse_generated_platform(const GeneratedPlatform& p);

}  // namespace ct::bench
