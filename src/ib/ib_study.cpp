#include "ib/ib_study.h"

#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "ib/fabric_edits.h"
#include "ib/ib_ranking.h"
#include "ib/subnet_manager.h"
#include "ib/switch_graph.h"

namespace ct {
namespace {

// Diagnostics of the fabric or the engines carry no file: they are about the subnet read from `file`.
Diagnostics located(Diagnostics errors, const std::string& file) {
  for (Diagnostic& d : errors) {
    if (d.where.file.empty()) d.where.file = file;
  }
  return errors;
}

Diagnostics at(Diagnostics errors, const SourceLocation& where, const std::string& field) {
  for (Diagnostic& d : errors) {
    d.where = where;
    d.field = field;
  }
  return errors;
}

Result<IbRouting> route_or_read(const IbFabric& fabric, const IbRouteStudyOptions& o) {
  if (!o.lfts) return route_fabric(fabric, o.routing);
  return routing_from_lft_dump(fabric, *o.lfts, o.lfts_file);
}

// The study's steps for progress: per fabric (healthy, then degraded) the routing (or the LFTs
// read) and the five checks of analyze().
constexpr std::uint64_t kStepsPerFabric = 6;

class StudySteps {
 public:
  StudySteps(const ProgressCallback& progress, std::uint64_t fabrics)
      : progress_(progress), total_(kStepsPerFabric * fabrics) {}
  void done() {
    if (progress_) progress_(++done_, total_);
  }

 private:
  const ProgressCallback& progress_;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
};

IbRoutedFabric analyze(IbFabric fabric, IbRouting routing, const IbRouteStudyOptions& o, StudySteps& steps) {
  IbRoutedFabric r;
  r.fabric = std::move(fabric);
  r.routing = std::move(routing);
  const SwitchGraph graph(r.fabric);
  const IbRanks ranks = rank_switches(r.fabric, graph, o.routing.roots);
  r.roots = ranks.roots.size();
  const CheckOptions co{o.switch_lids};
  r.reach = check_reachability(r.fabric, r.routing, co);
  steps.done();
  r.loops = check_credit_loops(r.fabric, r.routing, co);
  steps.done();
  r.balance = uplink_balance(r.fabric, r.routing, ranks);
  steps.done();
  r.shift = shift_permutation_load(r.fabric, r.routing, o.shifts);
  steps.done();
  r.random = random_permutation_load(r.fabric, r.routing, o.random, o.seed);
  steps.done();
  return r;
}

Result<std::uint32_t> destination_lid(const IbFabric& fabric, const IbRouting& routing, const IbTraceOptions& o) {
  const std::string& key = o.destination;
  if (auto node = find_node(fabric, key)) {
    const int port = fabric.is_switch(node.value()) ? 0 : 1;
    return static_cast<std::uint32_t>(routing.lids.base_lid(node.value(), port));
  }
  std::uint32_t lid = 0;
  const auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), lid);
  if (ec == std::errc() && ptr == key.data() + key.size()) return lid;
  return Diagnostic{o.where, "dst", fmt::format("\"{}\" is neither a node nor a LID", key)};
}

Result<IbTraced> trace(IbFabric fabric, const IbTraceOptions& o, const std::string& file) {
  auto routed = route_fabric(fabric, o.routing);
  if (!routed) return located(routed.errors(), file);
  std::string src = o.source;
  int port = 1;
  if (auto whole = find_node(fabric, src); !whole) {
    if (const auto colon = src.rfind(':'); colon != std::string::npos) {
      port = std::atoi(src.c_str() + colon + 1);
      src = src.substr(0, colon);
    }
  }
  auto node = find_node(fabric, src);
  if (!node) return at(node.errors(), o.where, "src");
  if (fabric.is_switch(node.value()) || port < 1 || port > fabric.ports(node.value())) {
    return Diagnostic{o.where, "src", "the source must be a CA port (NODE or NODE:PORT)"};
  }
  auto lid = destination_lid(fabric, routed.value(), o);
  if (!lid) return lid.errors();
  IbTraced t;
  t.fabric = std::move(fabric);
  t.routing = std::move(routed).value();
  t.dlid = lid.value();
  t.trace = trace_route(t.fabric, t.routing, node.value(), port, t.dlid);
  return t;
}

}  // namespace

Result<std::size_t> remove_cables(IbFabric& fabric, const std::vector<std::string>& failures,
                                  const SourceLocation& where) {
  auto removed = apply_failures(fabric, failures);
  if (!removed) return at(removed.errors(), where, "--fail");
  return removed;
}

Result<IbRouteStudy> study_ib_route(IbSubnet subnet, const IbRouteStudyOptions& o) {
  IbRouteStudy s;
  s.origin = subnet.origin;
  s.source = o.lfts ? "LFTs of " + o.lfts_file : "Engine " + to_string(o.routing.engine);
  s.roots_given = !o.routing.roots.empty();
  s.seed = o.seed;
  StudySteps steps(o.progress, o.failures.empty() ? 1 : 2);
  // The cables come out first, so that a failure naming no cable is refused before any routing.
  IbFabric degraded = o.failures.empty() ? IbFabric{} : subnet.fabric;
  if (!o.failures.empty()) {
    auto removed = remove_cables(degraded, o.failures, o.where);
    if (!removed) return removed.errors();
    s.removed = removed.value();
    s.cables_left = degraded.cable_count();
  }
  auto routed = route_or_read(subnet.fabric, o);
  if (!routed) return located(routed.errors(), subnet.file);
  steps.done();
  s.healthy = analyze(std::move(subnet.fabric), std::move(routed).value(), o, steps);
  if (o.failures.empty()) return s;
  s.failed_cables = true;
  s.same_lfts = o.lfts.has_value();
  auto rerouted = route_or_read(degraded, o);
  if (!rerouted) {
    s.degraded_errors = located(rerouted.errors(), subnet.file);
    return s;
  }
  steps.done();
  s.degraded = analyze(std::move(degraded), std::move(rerouted).value(), o, steps);
  return s;
}

Result<IbTraceStudy> study_ib_trace(IbSubnet subnet, const IbTraceOptions& o) {
  IbTraceStudy s;
  IbFabric degraded = o.failures.empty() ? IbFabric{} : subnet.fabric;
  if (!o.failures.empty()) {
    auto removed = remove_cables(degraded, o.failures, o.where);
    if (!removed) return removed.errors();
    s.removed = removed.value();
  }
  auto healthy = trace(std::move(subnet.fabric), o, subnet.file);
  if (!healthy) return healthy.errors();
  s.healthy = std::move(healthy).value();
  if (o.failures.empty()) return s;
  s.failed_cables = true;
  auto after = trace(std::move(degraded), o, subnet.file);
  if (!after) {
    s.degraded_errors = after.errors();
    return s;
  }
  s.degraded = std::move(after).value();
  return s;
}

}  // namespace ct
