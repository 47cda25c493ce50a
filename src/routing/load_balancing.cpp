#include "routing/load_balancing.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "core/rng.h"
#include "routing/port_address.h"

namespace ct {
namespace {

constexpr std::uint64_t kSchemeStream = 0x5343'4845'4D45;  // "SCHEME": the draws of a load-balancing scheme

// The stream of a random draw: the tuple (scheme, flow, sub-flow), hashed (core/rng.h).
std::uint64_t stream_of(Scheme s, std::uint32_t flow, std::uint32_t sub) {
  return ct::stream_of({kSchemeStream, static_cast<std::uint64_t>(s), flow, sub});
}

// Walks src -> dst appending entries of fraction 1 to the current sub-flow of `r`; at a group of
// n >= 2 members the member is choose(switch, group), and the group is noted as entered when
// `groups`. Returns whether dst was reached.
template <typename Choose>
bool walk_choosing(const PathWalker& w, VertexId src, VertexId dst, Choose&& choose, FlowRoutes& r,
                   bool groups = true) {
  const ForwardingState& f = w.forwarding();
  const Topology& t = f.topology();
  if (t.plane[src.value()] != t.plane[dst.value()] || src == dst) return false;
  const LinkId first(src.value());
  if (f.failed(first)) return false;
  r.add(directed_link(first, true), 1.0);
  VertexId at = t.other_end(first, src);
  const std::uint32_t destination = f.destination_of(dst);
  for (std::uint32_t hop = 0; hop < w.max_hops(); ++hop) {
    const std::uint32_t g = f.group(at, destination);
    if (g == ForwardingState::kLocalGroup) {
      const LinkId last(dst.value());
      if (f.failed(last)) return false;
      r.add(directed_link(last, false), 1.0);
      return true;
    }
    if (g == ForwardingState::kNoRouteGroup) return false;
    const std::uint32_t n = f.size(g);
    std::uint32_t m = 0;
    if (n > 1) {
      m = choose(at, g);
      if (groups) r.entered_groups.push_back(g);
    }
    const LinkId l = f.members(g)[m];
    r.add(directed_link(l, f.kind(g) == GroupKind::kUp), 1.0);
    at = t.other_end(l, at);
  }
  return false;
}

class Router {
 public:
  Router(const PathWalker& w, std::span<const RouteRequest> requests, const SchemeOptions& o)
      : w_(w), f_(w.forwarding()), t_(f_.topology()), requests_(requests), o_(o) {
    r_.flow_count = static_cast<std::uint32_t>(requests.size());
    r_.reached.assign(requests.size(), 1);
  }

  FlowRoutes run(Scheme s) {
    switch (s) {
      case Scheme::kHash: each([&](std::uint32_t i) { hashed(i, requests_[i], 0, 1.0); }); break;
      case Scheme::kSpray: each([&](std::uint32_t i) { spray(i); }); break;
      case Scheme::kFlowlet: flowlets(); break;
      case Scheme::kAdaptive: adaptive(); break;
      case Scheme::kMoreQps: each([&](std::uint32_t i) { more_qps(i); }); break;
      case Scheme::kPlaneSplit: each([&](std::uint32_t i) { plane_split(i); }); break;
    }
    std::sort(r_.entered_groups.begin(), r_.entered_groups.end());
    r_.entered_groups.erase(std::unique(r_.entered_groups.begin(), r_.entered_groups.end()), r_.entered_groups.end());
    return std::move(r_);
  }

 private:
  template <typename Body>
  void each(Body&& body) {
    for (std::uint32_t i = 0; i < requests_.size(); ++i) body(i);
  }

  void hashed(std::uint32_t i, const RouteRequest& q, std::uint32_t epoch, double share) {
    r_.start_subflow(i, epoch, share);
    auto choose = [&](VertexId sw, std::uint32_t g) { return w_.choose(sw, g, q.key); };
    if (!walk_choosing(w_, q.src, q.dst, choose, r_, o_.entered_groups)) r_.reached[i] = 0;
  }

  // Fractions flow down the group DAG: what reaches a switch is split evenly over its members.
  void spray(std::uint32_t i) {
    const RouteRequest& q = requests_[i];
    r_.start_subflow(i, 0, 1.0);
    if (t_.plane[q.src.value()] != t_.plane[q.dst.value()] || q.src == q.dst || f_.failed(LinkId(q.src.value()))) {
      r_.reached[i] = 0;
      return;
    }
    std::map<std::uint32_t, double> on_link;  // directed link -> fraction, sorted
    on_link[directed_link(LinkId(q.src.value()), true)] = 1.0;
    std::map<std::uint32_t, double> frontier = {{t_.other_end(LinkId(q.src.value()), q.src).value(), 1.0}};
    const std::uint32_t destination = f_.destination_of(q.dst);
    for (std::uint32_t hop = 0; hop < w_.max_hops() && !frontier.empty(); ++hop) {
      std::map<std::uint32_t, double> next;
      for (const auto& [v, amount] : frontier) {
        const std::uint32_t g = f_.group(VertexId(v), destination);
        if (g == ForwardingState::kLocalGroup) {
          if (f_.failed(LinkId(q.dst.value()))) r_.reached[i] = 0;
          on_link[directed_link(LinkId(q.dst.value()), false)] += amount;
          continue;
        }
        if (g == ForwardingState::kNoRouteGroup) {
          r_.reached[i] = 0;
          continue;
        }
        const auto members = f_.members(g);
        if (members.size() > 1 && o_.entered_groups) r_.entered_groups.push_back(g);
        const double part = amount / static_cast<double>(members.size());
        for (LinkId l : members) {
          on_link[directed_link(l, f_.kind(g) == GroupKind::kUp)] += part;
          next[t_.other_end(l, VertexId(v)).value()] += part;
        }
      }
      frontier = std::move(next);
    }
    if (!frontier.empty()) r_.reached[i] = 0;
    for (const auto& [l, fraction] : on_link) r_.add(l, fraction);
  }

  void flowlets() {
    std::uint32_t epochs = 1;
    for (const RouteRequest& q : requests_) epochs = std::max(epochs, q.flowlets);
    r_.epochs = epochs;
    for (std::uint32_t i = 0; i < requests_.size(); ++i) {
      const RouteRequest& q = requests_[i];
      for (std::uint32_t e = 0; e < epochs; ++e) {
        const auto flowlet = static_cast<std::uint32_t>(std::uint64_t{e} * q.flowlets / epochs);
        if (flowlet == 0) {
          hashed(i, q, e, 1.0);
          continue;
        }
        r_.start_subflow(i, e, 1.0);
        Rng rng(o_.seed, o_.trial, stream_of(Scheme::kFlowlet, i, flowlet));
        auto choose = [&](VertexId, std::uint32_t g) { return static_cast<std::uint32_t>(rng.uniform(f_.size(g))); };
        if (!walk_choosing(w_, q.src, q.dst, choose, r_, o_.entered_groups)) r_.reached[i] = 0;
      }
    }
  }

  void adaptive() {
    std::vector<double> load(2 * t_.link_count(), 0.0);
    for (std::uint32_t i = 0; i < requests_.size(); ++i) {
      const RouteRequest& q = requests_[i];
      r_.start_subflow(i, 0, 1.0);
      auto least_loaded = [&](VertexId sw, std::uint32_t g) {
        const auto members = f_.members(g);
        const bool up = f_.kind(g) == GroupKind::kUp;
        const std::uint32_t hashed_member = w_.choose(sw, g, q.key);
        double lowest = load[directed_link(members[hashed_member], up)];
        std::uint32_t best = hashed_member;
        for (std::uint32_t m = 0; m < members.size(); ++m) {
          const double l = load[directed_link(members[m], up)];
          if (l < lowest) {
            lowest = l;
            best = m;
          }
        }
        return best;
      };
      if (!walk_choosing(w_, q.src, q.dst, least_loaded, r_, o_.entered_groups)) r_.reached[i] = 0;
      for (std::uint32_t l : r_.links(r_.subflow_count() - 1)) load[l] += 1.0;
    }
  }

  void more_qps(std::uint32_t i) {
    const std::uint32_t qps = std::max<std::uint32_t>(1, o_.qps);
    Rng rng(o_.seed, o_.trial, stream_of(Scheme::kMoreQps, i, 0));
    for (std::uint32_t qp = 0; qp < qps; ++qp) {
      RouteRequest q = requests_[i];
      if (qp > 0) q.key.src_port = static_cast<std::uint16_t>(0xC000 + rng.uniform(0x4000));
      hashed(i, q, 0, 1.0 / qps);
    }
  }

  void plane_split(std::uint32_t i) {
    const RouteRequest& q = requests_[i];
    const int planes = t_.planes;
    for (int p = 0; p < planes; ++p) {
      RouteRequest sub = q;
      const auto s = q.src.value();
      const auto d = q.dst.value();
      sub.src = t_.port_of(HostId(t_.group[s]), static_cast<int>(t_.index[s]), p);
      sub.dst = t_.port_of(HostId(t_.group[d]), static_cast<int>(t_.index[d]), p);
      if (addressable(t_)) {
        sub.key.src_ip = port_address(t_, sub.src);
        sub.key.dst_ip = port_address(t_, sub.dst);
      }
      hashed(i, sub, 0, 1.0 / planes);
    }
  }

  const PathWalker& w_;
  const ForwardingState& f_;
  const Topology& t_;
  std::span<const RouteRequest> requests_;
  SchemeOptions o_;
  FlowRoutes r_;
};

}  // namespace

std::string_view scheme_name(Scheme s) {
  switch (s) {
    case Scheme::kHash: return "hash";
    case Scheme::kSpray: return "spray";
    case Scheme::kFlowlet: return "flowlet";
    case Scheme::kAdaptive: return "adaptive";
    case Scheme::kMoreQps: return "more-qps";
    case Scheme::kPlaneSplit: return "plane-split";
  }
  return "?";
}

std::optional<Scheme> parse_scheme(std::string_view name) {
  for (Scheme s : kAllSchemes) {
    if (scheme_name(s) == name) return s;
  }
  return std::nullopt;
}

FlowRoutes route_flows(Scheme scheme, const PathWalker& walker, std::span<const RouteRequest> requests,
                       const SchemeOptions& options) {
  return Router(walker, requests, options).run(scheme);
}

bool sprayed_path(const PathWalker& walker, VertexId src, VertexId dst, std::uint64_t packet,
                  std::vector<std::uint32_t>& links) {
  const ForwardingState& f = walker.forwarding();
  FlowRoutes r;
  r.start_subflow(0, 0, 1.0);
  std::uint64_t rest = packet;
  auto choose = [&](VertexId, std::uint32_t g) {
    const std::uint32_t k = f.size(g);
    const auto m = static_cast<std::uint32_t>(rest % k);
    rest /= k;
    return m;
  };
  const bool reached = walk_choosing(walker, src, dst, choose, r);
  links.assign(r.link.begin(), r.link.end());
  return reached;
}

std::uint64_t spray_period(const PathWalker& walker, VertexId src, VertexId dst) {
  constexpr std::uint64_t kCap = std::uint64_t{1} << 20;
  const ForwardingState& f = walker.forwarding();
  const Topology& t = f.topology();
  if (t.plane[src.value()] != t.plane[dst.value()] || src == dst || f.failed(LinkId(src.value()))) return 1;
  // Per vertex reached: the lcm of the products of the group sizes on the ways to it.
  std::map<std::uint32_t, std::uint64_t> frontier = {{t.other_end(LinkId(src.value()), src).value(), 1}};
  const std::uint32_t destination = f.destination_of(dst);
  std::uint64_t period = 1;
  for (std::uint32_t hop = 0; hop < walker.max_hops() && !frontier.empty(); ++hop) {
    std::map<std::uint32_t, std::uint64_t> next;
    for (const auto& [v, product] : frontier) {
      const std::uint32_t g = f.group(VertexId(v), destination);
      if (g == ForwardingState::kLocalGroup) {
        period = std::min(kCap, std::lcm(period, product));
        continue;
      }
      if (g == ForwardingState::kNoRouteGroup) continue;
      const auto members = f.members(g);
      const std::uint64_t here = std::min(kCap, product * members.size());
      for (LinkId l : members) {
        std::uint64_t& at = next[t.other_end(l, VertexId(v)).value()];
        at = std::min(kCap, std::lcm(std::max<std::uint64_t>(at, 1), here));
      }
    }
    frontier = std::move(next);
  }
  return period;
}

}  // namespace ct
