#include "analysis/link_loads.h"

#include <algorithm>
#include <set>
#include <utility>

#include "routing/path_walker.h"

namespace ct {
namespace {

constexpr double kIdle = 1e-12;

LinkSet measure(const std::set<std::uint32_t>& links, const std::vector<double>& load) {
  LinkSet s;
  s.links = static_cast<std::uint32_t>(links.size());
  for (std::uint32_t l : links) {
    s.busiest = std::max(s.busiest, load[l]);
    if (load[l] < kIdle) ++s.idle;
  }
  return s;
}

}  // namespace

LoadSummary summarize_loads(const FlowRoutes& routes, const ForwardingState& forwarding) {
  FlowRateSolver rates(forwarding.topology());
  return summarize_loads(routes, forwarding, rates);
}

LoadSummary summarize_loads(const FlowRoutes& routes, const ForwardingState& forwarding, FlowRateSolver& rates) {
  const Topology& t = forwarding.topology();
  LoadSummary s;
  s.load = routes.link_loads(t.link_count());
  std::set<std::uint32_t> in_play, up, first;
  for (std::uint32_t g : routes.entered_groups) {
    const bool is_up = forwarding.kind(g) == GroupKind::kUp;
    const bool leaf = t.tier[forwarding.owner(g).value()] == 1;
    GroupLoad gl;
    gl.group = g;
    gl.members = forwarding.size(g);
    double total = 0.0;
    for (LinkId l : forwarding.members(g)) {
      const std::uint32_t d = directed_link(l, is_up);
      const double x = s.load[d];
      total += x;
      gl.max_load = std::max(gl.max_load, x);
      if (x < kIdle) ++gl.idle;
      in_play.insert(d);
      if (is_up) up.insert(d);
      if (is_up && leaf) first.insert(d);
    }
    gl.mean_load = total / gl.members;
    s.groups.push_back(gl);
  }
  s.in_play = measure(in_play, s.load);
  s.uplinks = measure(up, s.load);
  s.first_tier_uplinks = measure(first, s.load);
  FlowRates solved;
  rates.solve(routes, solved);
  s.throughput = std::move(solved.throughput);
  s.slowest = s.throughput.empty() ? 0.0 : *std::min_element(s.throughput.begin(), s.throughput.end());
  double sum = 0.0;
  for (std::uint32_t f = 0; f < routes.flow_count; ++f) {
    sum += s.throughput[f];
    if (!routes.reached[f]) ++s.unreached;
  }
  s.mean_throughput = routes.flow_count == 0 ? 0.0 : sum / routes.flow_count;
  return s;
}

}  // namespace ct
