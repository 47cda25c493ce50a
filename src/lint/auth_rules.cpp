// Authentication rules (issue 28 item 4): the login every covered app passes, read from the
// frontend model's authentication dependencies (frontend/auth_dependency.h).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lint/lint_checks.h"
#include "lint/lint_query.h"

namespace ct {

namespace {

// The policy's own object, for the finding's locations.
LintObject policy_object(const Manifests& m, const AuthDependency& d) {
  const AuthPolicy& p = m.auth_policies[d.policy];
  return {object_label(p.meta), p.where};
}

}  // namespace

// A login whose ready endpoints all sit on one node (one replica, or every replica on one node):
// that node's death takes every app the step covers down. One finding per authentication Service.
void check_login_one_node(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  std::set<std::string> seen;
  for (const AuthDependency& d : c.model.auth) {
    if (d.service.empty() || !d.service_problem.empty() || d.endpoints.empty() || !seen.insert(d.service).second) continue;
    std::set<std::string> nodes;
    for (const AuthEndpoint& e : d.endpoints) nodes.insert(e.node);
    if (nodes.size() != 1) continue;
    std::vector<LintObject> objects{policy_object(m, d)};
    for (std::size_t w : d.workloads) objects.push_back({object_label(m.workloads[w].meta), m.workloads[w].where_replicas});
    std::size_t policies = 0;
    for (const AuthDependency& other : c.model.auth) policies += other.service == d.service ? 1 : 0;
    out.push_back(rule.finding(
        fmt::format("every ready endpoint of the authentication Service {} ({} pod(s)) runs on {}; {} authentication step(s) ask it",
                    d.service, d.endpoints.size(), *nodes.begin(), policies),
        std::move(objects),
        fmt::format("when {} fails or is drained, every request the login covers gets {} until a login pod is rescheduled and "
                    "ready (trace --dead-node {} shows it)",
                    *nodes.begin(), d.fail_open ? 200 : d.down_status, *nodes.begin()),
        "run two or more login replicas with podAntiAffinity on kubernetes.io/hostname, and a PodDisruptionBudget with "
        "maxUnavailable: 1 selecting them"));
  }
}

// A login spread over two nodes or more (login-one-node is quiet) with no PodDisruptionBudget:
// a drain may still evict every login pod at once. One finding per authentication Service.
void check_login_no_pdb(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  std::set<std::string> seen;
  for (const AuthDependency& d : c.model.auth) {
    if (d.service.empty() || !d.service_problem.empty() || !seen.insert(d.service).second) continue;
    std::set<std::string> nodes;
    for (const AuthEndpoint& e : d.endpoints) nodes.insert(e.node);
    if (nodes.size() < 2) continue;  // one node: login-one-node says it, with the budget in its fix
    for (std::size_t w : d.workloads) {
      const KubeWorkload& wl = m.workloads[w];
      if (disruption_budget_of(m, wl) != nullptr) continue;
      std::vector<std::string> labels;
      for (const auto& [k, v] : wl.pod_labels) labels.push_back(k + ": " + v);
      out.push_back(rule.finding(
          fmt::format("no PodDisruptionBudget selects the login {} behind the authentication Service {}", object_label(wl.meta), d.service),
          {policy_object(m, d), {object_label(wl.meta), wl.meta.where}},
          "a node drain (an upgrade) may evict every login pod at once: every app behind the login answers with the "
          "login's failure status until a login pod is ready again",
          fmt::format("add: apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {{name: {}, namespace: {}}}, "
                      "spec: {{maxUnavailable: 1, selector: {{matchLabels: {{{}}}}}}}",
                      wl.meta.name, wl.meta.ns, fmt::join(labels, ", "))));
    }
  }
}

// A sign-in page behind the very step that redirects to it: an unauthenticated browser is sent
// round the redirect until it gives up.
void check_login_redirect_loop(const LintContext& c, const LintRule& rule, std::vector<LintFinding>& out) {
  const Manifests& m = c.model.manifests;
  for (const AuthDependency& d : c.model.auth) {
    if (!d.loop) continue;
    out.push_back(rule.finding(d.loop_why,
                               {policy_object(m, d)},
                               "no unauthenticated user can sign in: the browser follows the redirect until it reports too many redirects",
                               "take the sign-in route (" + d.login_route + ") out of the step's coverage"));
  }
}

}  // namespace ct
