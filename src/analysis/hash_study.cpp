#include "analysis/hash_study.h"

#include <algorithm>
#include <set>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "traffic/flow_file.h"
#include "traffic/flow_generator.h"

namespace ct {
namespace {

constexpr std::uint32_t kMinCouplingSamples = 256;
constexpr std::uint32_t kMaxCouplingWalks = 1u << 20;

void append(Diagnostics& to, const Diagnostics& from) { to.insert(to.end(), from.begin(), from.end()); }

Result<std::vector<LinkId>> failed_links(const NameDirectory& names, const HashStudyOptions& o) {
  std::vector<LinkId> out;
  Diagnostics errors;
  for (const std::string& name : o.fail) {
    auto links = names.links(name, o.where, "--fail");
    if (!links) {
      append(errors, links.errors());
      continue;
    }
    out.insert(out.end(), links.value().begin(), links.value().end());
  }
  if (!errors.empty()) return errors;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct GeneratedFlows {
  std::vector<Flow> flows;
  std::string source;
  std::vector<std::string> notes;
};

// "NICs carry 2 each", "NICs carry 2 or 3 each".
std::string per_nic(std::size_t flows, std::size_t nics) {
  const std::size_t low = flows / nics, high = (flows + nics - 1) / nics;
  return low == high ? fmt::format("NICs carry {} each", low) : fmt::format("NICs carry {} or {} each", low, high);
}

// What the generated elephants could not avoid: shared NICs, flows to their own host.
std::vector<std::string> elephant_notes(const Topology& t, const std::vector<Flow>& flows, bool default_sources,
                                        bool default_destinations) {
  std::vector<std::string> notes;
  std::set<VertexId> sources, destinations;
  std::size_t own_host = 0;
  for (const Flow& f : flows) {
    sources.insert(f.src);
    destinations.insert(f.dst);
    own_host += t.group[f.src.value()] == t.group[f.dst.value()] ? 1 : 0;
  }
  // A port's NIC link has the port's id (topology/builder.h); names as the name directory prints them.
  auto leaf = [&](VertexId port) { return t.vertex_name(t.other_end(LinkId(port.value()), port)); };
  if (sources.size() < flows.size()) {
    notes.push_back(default_sources ? fmt::format("{} elephants but only {} NICs under {}: {}", flows.size(), sources.size(),
                                                  leaf(flows.front().src), per_nic(flows.size(), sources.size()))
                                    : fmt::format("{} elephants from {} source NIC{} (--from): {}", flows.size(),
                                                  sources.size(), sources.size() == 1 ? "" : "s",
                                                  per_nic(flows.size(), sources.size())));
  }
  if (destinations.size() < flows.size()) {
    notes.push_back(default_destinations
                        ? fmt::format("{} elephants but only {} NICs under {}: destination {}", flows.size(),
                                      destinations.size(), leaf(flows.front().dst), per_nic(flows.size(), destinations.size()))
                        : fmt::format("{} elephants to {} destination NIC{} (--to): {}", flows.size(), destinations.size(),
                                      destinations.size() == 1 ? "" : "s", per_nic(flows.size(), destinations.size())));
  }
  if (own_host > 0) {
    notes.push_back(fmt::format("{} of {} elephants go to another NIC of their own host{}", own_host, flows.size(),
                                default_destinations ? fmt::format(" ({} has no NIC of another host for them)",
                                                                   leaf(flows.front().dst))
                                                     : std::string()));
  }
  return notes;
}

// hash: linux with seed 0 (see hash_study.h).
std::optional<std::string> linux_seed_note(const Topology& t, const SwitchHashes& hashes) {
  if (!hashes.config().linux_kernel) return std::nullopt;
  std::size_t zero = 0, switches = 0;
  for (std::uint32_t v = 0; v < t.vertex_count(); ++v) {
    if (t.kind[v] != VertexKind::kSwitch || t.network[v] != Network::kBackend) continue;
    ++switches;
    zero += hashes.seed(VertexId(v)) == 0 ? 1 : 0;
  }
  if (zero == 0) return std::nullopt;
  return fmt::format(
      "hash: linux with seed 0 on {} of {} switches: with net.ipv4.fib_multipath_hash_seed = 0 the kernel hashes "
      "with one random key per host, drawn at boot and the same in every network namespace of that host, so routers "
      "emulated as namespaces of one host all hash alike and every tier repeats the previous tier's choice "
      "(polarization); this model uses key 0 for them. Set routing.ecmp.seed (the sysctl) to a non-zero value, with "
      "seed_mode per-switch for independent routers",
      zero, switches);
}

Result<GeneratedFlows> make_flows(const Fabric& fabric, const HashStudyOptions& o) {
  const Topology& t = fabric.topology();
  if (o.flows_text) {
    auto flows = parse_flow_file(o.flows_file, *o.flows_text, fabric.names());
    if (!flows) return flows.errors();
    return GeneratedFlows{std::move(flows).value(),
                          fmt::format("{} (explicit; Monte Carlo trials redraw the source ports)", o.flows_file), {}};
  }
  const int qps = o.qps > 0 ? o.qps : fabric.ecmp().qps_per_connection;
  if (o.ring) {
    if (t.host_count < 2) return Diagnostic{o.where, "--ring", "a ring needs at least 2 hosts"};
    return GeneratedFlows{
        ring_flows(t, RingOptions{o.channels, qps, o.size}, o.seed),
        fmt::format("ring collective per rail and plane, {} channel(s) x {} QP(s) per connection (generated, seed {})",
                    o.channels, qps, o.seed),
        {}};
  }
  ElephantOptions e;
  e.count = o.elephants;
  e.size = o.size;
  e.bursts = o.bursts;
  e.idle_us = o.idle_us;
  Diagnostics errors;
  for (const auto& [list, field, out] : {std::tuple{&o.from, "--from", &e.sources}, std::tuple{&o.to, "--to", &e.destinations}}) {
    for (const std::string& name : *list) {
      auto port = fabric.names().backend_port(name, o.where, field);
      if (port) {
        out->push_back(port.value());
      } else {
        append(errors, port.errors());
      }
    }
  }
  if (!errors.empty()) return errors;
  std::vector<Flow> flows = elephant_flows(t, e, o.seed);
  for (const Flow& f : flows) {
    if (t.plane[f.src.value()] != t.plane[f.dst.value()] || f.src == f.dst) {
      return Diagnostic{o.where, "--to",
                        fmt::format("{} -> {}: source and destination must be different ports of one plane",
                                    t.vertex_name(f.src), t.vertex_name(f.dst))};
    }
  }
  std::vector<std::string> notes = elephant_notes(t, flows, o.from.empty(), o.to.empty());
  return GeneratedFlows{std::move(flows),
                        fmt::format("{} elephant flow{} (generated: RoCE source ports from seed {})", o.elephants,
                                    o.elephants == 1 ? "" : "s", o.seed),
                        std::move(notes)};
}

}  // namespace

Result<HashStudy> study_hash(const Fabric& fabric, const HashStudyOptions& o) {
  Diagnostics errors;
  auto failed = failed_links(fabric.names(), o);
  if (!failed) append(errors, failed.errors());
  std::vector<VertexId> fib;
  for (const std::string& name : o.fib) {
    auto sw = fabric.names().backend_switch(name, o.where, "--fib");
    if (sw) {
      fib.push_back(sw.value());
    } else {
      append(errors, sw.errors());
    }
  }
  auto generated = make_flows(fabric, o);
  if (!generated) append(errors, generated.errors());
  if (!errors.empty()) return errors;

  HashStudy s;
  s.spec_name = fabric.spec().name;
  s.spec_file = fabric.spec().file;
  s.flows = std::move(generated.value().flows);
  s.flow_source = std::move(generated.value().source);
  s.notes = std::move(generated.value().notes);
  if (auto note = linux_seed_note(fabric.topology(), fabric.hashes())) s.warnings.push_back(std::move(*note));
  s.failed = std::move(failed).value();
  s.fib_switches = std::move(fib);
  s.seed = o.seed;
  s.names_ = &fabric.names();
  if (s.failed.empty()) {
    s.walker_ = &fabric.walker();
  } else {
    s.degraded_ = std::make_unique<const ForwardingState>(fabric.topology(), s.failed);
    s.own_walker_ = std::make_unique<const PathWalker>(*s.degraded_, fabric.hashes());
    s.walker_ = s.own_walker_.get();
  }
  const PathWalker& walker = *s.walker_;
  const ForwardingState& forwarding = walker.forwarding();

  std::vector<RouteRequest> requests;
  std::vector<BurstPattern> bursts;
  requests.reserve(s.flows.size());
  bursts.reserve(s.flows.size());
  for (const Flow& f : s.flows) {
    requests.push_back(RouteRequest{f.src, f.dst, f.key, 1});
    bursts.push_back(BurstPattern{f.bursts, f.idle_us});
  }
  std::uint32_t widest = 1;
  for (std::uint32_t g = 0; g < forwarding.group_count(); ++g) widest = std::max(widest, forwarding.size(g));
  const auto budget = static_cast<std::uint32_t>(kMaxCouplingWalks / std::max<std::size_t>(1, requests.size()));
  s.coupling_samples = std::max(32u, std::min(std::max(kMinCouplingSamples, 32 * widest), budget));
  s.coupling_ = std::make_unique<const DecisionCoupling>(walker, requests, o.seed, s.coupling_samples);
  s.scenario = analyze_hash_scenario(walker, requests, *s.coupling_);

  const unsigned threads = o.threads > 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  // One progress count over the Monte Carlo's trials, then the comparison's.
  const std::uint64_t mc_trials = o.trials;
  const std::uint64_t all_trials = mc_trials + (o.compare ? std::max(1u, o.trials) : 0);
  const auto progress_from = [&o, all_trials](std::uint64_t offset) -> ProgressCallback {
    if (!o.progress) return {};
    return [&o, offset, all_trials](std::uint64_t done, std::uint64_t) { o.progress(offset + done, all_trials); };
  };
  if (o.trials > 0) {
    s.monte_carlo = o.gathered != nullptr
                        ? summarize_ecmp_trials(walker, requests, o.gathered->monte_carlo, o.seed)
                        : run_ecmp_monte_carlo(walker, requests, *s.coupling_,
                                               {o.trials, o.seed, threads, progress_from(0), o.first_trial});
    if (o.progress) o.progress(mc_trials, all_trials);
  }
  if (o.compare) {
    ComparisonOptions c;
    c.qps = o.compare_qps;
    c.flowlet_gap_us = fabric.ecmp().flowlet_gap_us;
    c.seed = o.seed;
    c.trials = std::max(1u, o.trials);
    c.threads = threads;
    c.progress = progress_from(mc_trials);
    c.first_trial = o.first_trial;
    s.comparison_measures = o.gathered != nullptr ? o.gathered->comparison : scheme_trials(walker, requests, bursts, c);
    s.comparison = scheme_rows(walker, requests, bursts, c, s.comparison_measures);
    if (o.progress) o.progress(all_trials, all_trials);
    s.comparison_trials = c.trials;
  }
  return s;
}

}  // namespace ct
