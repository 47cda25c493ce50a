#include "analysis/hash_scenario.h"

#include <algorithm>
#include <set>
#include <utility>

namespace ct {
namespace {

using Choice = CollisionWorkspace::Choice;

// The flow's hashed decision before hop `hop`, or nullptr.
const PathHop* previous_decision(const ForwardingState& f, const FlowPath& p, std::uint32_t hop) {
  for (std::uint32_t h = hop; h-- > 0;) {
    const PathHop& x = p.hops[h];
    if (x.group != kNoGroup && f.size(x.group) >= 2) return &x;
  }
  return nullptr;
}

// A switch with up links, every one of them failed: nothing it holds can climb.
bool all_uplinks_down(const ForwardingState& f, VertexId sw) {
  const Topology& t = f.topology();
  if (t.kind[sw.value()] != VertexKind::kSwitch) return false;
  std::uint32_t up = 0, up_failed = 0;
  for (const Adjacency& a : t.neighbors(sw)) {
    if (t.tier[a.neighbor.value()] <= t.tier[sw.value()]) continue;
    ++up;
    up_failed += f.failed(a.link) ? 1 : 0;
  }
  return up > 0 && up == up_failed;
}

}  // namespace

std::string_view collision_cause_name(CollisionCause c) {
  switch (c) {
    case CollisionCause::kBadLuck: return "bad luck";
    case CollisionCause::kPolarization: return "polarization";
    case CollisionCause::kMissingEntropy: return "missing entropy";
  }
  return "?";
}

FlowRoutes routes_of_paths(const std::vector<FlowPath>& paths, const ForwardingState& forwarding) {
  FlowRoutes r;
  routes_of_paths(paths, forwarding, r);
  return r;
}

void routes_of_paths(const std::vector<FlowPath>& paths, const ForwardingState& forwarding, FlowRoutes& r) {
  r.flow_count = static_cast<std::uint32_t>(paths.size());
  r.epochs = 1;
  r.owner.clear();
  r.epoch.clear();
  r.share.clear();
  r.begin.assign(1, 0);
  r.link.clear();
  r.fraction.clear();
  r.entered_groups.clear();
  r.reached.resize(paths.size());
  for (std::uint32_t i = 0; i < paths.size(); ++i) {
    r.reached[i] = paths[i].reached ? 1 : 0;
    r.start_subflow(i, 0, 1.0);
    for (const PathHop& h : paths[i].hops) {
      r.add(h.directed(), 1.0);
      // A repeat of the last group entered is left out before the sort (flows between two leaves
      // all enter the same up group): the sorted, unique list is the same, the sort shorter.
      if (h.group == kNoGroup || forwarding.size(h.group) < 2) continue;
      if (r.entered_groups.empty() || r.entered_groups.back() != h.group) r.entered_groups.push_back(h.group);
    }
  }
  std::sort(r.entered_groups.begin(), r.entered_groups.end());
  r.entered_groups.erase(std::unique(r.entered_groups.begin(), r.entered_groups.end()), r.entered_groups.end());
}

std::vector<Collision> find_collisions(const PathWalker& walker, std::span<const RouteRequest> requests,
                                       const std::vector<FlowPath>& paths, const DecisionCoupling& coupling) {
  CollisionWorkspace workspace;
  std::vector<Collision> out;
  find_collisions(walker, requests, paths, coupling, workspace, out);
  return out;
}

void find_collisions(const PathWalker& walker, std::span<const RouteRequest> requests, const std::vector<FlowPath>& paths,
                     const DecisionCoupling& coupling, CollisionWorkspace& ws, std::vector<Collision>& out) {
  const ForwardingState& f = walker.forwarding();
  const FieldMask fields = walker.hashes().config().effective_fields();
  const bool source_port_hashed = (fields & kFieldSrcPort) != 0;
  // Every hashed decision gets the slot of its directed link (slots in order of first use) and
  // counts its flow once in its group; each slot's choices are then laid out in (flow, hop) order.
  constexpr std::uint32_t kNone = CollisionWorkspace::kNone;
  if (ws.link_slot_.size() < 2 * f.topology().link_count()) ws.link_slot_.resize(2 * f.topology().link_count(), kNone);
  if (ws.group_flows_.size() < f.group_count()) {
    ws.group_flows_.resize(f.group_count(), 0);
    ws.group_last_.resize(f.group_count(), 0);
  }
  ws.slot_link_.clear();
  ws.slot_begin_.clear();
  ws.decisions_.clear();
  ws.decision_slot_.clear();
  ws.entered_.clear();
  ws.colliding_.clear();
  // The slots by address: nothing below moves these vectors, so no reload at every hop.
  std::uint32_t* const link_slot = ws.link_slot_.data();
  std::uint32_t* const group_flows = ws.group_flows_.data();
  std::uint32_t* const group_last = ws.group_last_.data();
  for (std::uint32_t i = 0; i < paths.size(); ++i) {
    const PathHop* const hops = paths[i].hops.data();
    const auto count = static_cast<std::uint32_t>(paths[i].hops.size());
    for (std::uint32_t h = 0; h < count; ++h) {
      const PathHop& hop = hops[h];
      if (hop.group == kNoGroup || f.size(hop.group) < 2) continue;
      std::uint32_t& slot = link_slot[hop.directed()];
      if (slot == kNone) {
        slot = static_cast<std::uint32_t>(ws.slot_link_.size());
        ws.slot_link_.push_back(hop.directed());
        ws.slot_begin_.push_back(0);
      }
      ++ws.slot_begin_[slot];
      ws.decisions_.push_back({i, h});
      ws.decision_slot_.push_back(slot);
      if (group_last[hop.group] == 0) ws.entered_.push_back(hop.group);
      if (group_last[hop.group] != i + 1) {
        group_last[hop.group] = i + 1;
        ++group_flows[hop.group];
      }
    }
  }
  std::uint32_t next = 0;
  std::uint32_t* const slot_begin = ws.slot_begin_.data();
  for (std::uint32_t s = 0; s < ws.slot_link_.size(); ++s) {
    if (slot_begin[s] >= 2) ws.colliding_.push_back(ws.slot_link_[s]);
    next += std::exchange(slot_begin[s], next);
  }
  ws.slot_begin_.push_back(next);
  ws.choices_.resize(ws.decisions_.size());
  for (std::size_t d = 0; d < ws.decisions_.size(); ++d) ws.choices_[ws.slot_begin_[ws.decision_slot_[d]]++] = ws.decisions_[d];
  // slot_begin_[s] now ends slot s, which begins where slot s - 1 ends.
  std::sort(ws.colliding_.begin(), ws.colliding_.end());
  // The flow lists of the previous call's collisions are kept for this call's (no allocation once warm).
  for (Collision& c : out) {
    c.flows.clear();
    ws.spare_flows_.push_back(std::move(c.flows));
  }
  out.clear();
  for (const std::uint32_t link : ws.colliding_) {
    const std::uint32_t slot = ws.link_slot_[link];
    const std::uint32_t begin = slot == 0 ? 0 : ws.slot_begin_[slot - 1];
    const std::span<const Choice> choices(ws.choices_.data() + begin, ws.slot_begin_[slot] - begin);
    Collision c;
    if (!ws.spare_flows_.empty()) {
      c.flows = std::move(ws.spare_flows_.back());
      ws.spare_flows_.pop_back();
    }
    c.directed_link = link;
    const PathHop& first = paths[choices[0].flow].hops[choices[0].hop];
    c.at = first.from;
    c.group = first.group;
    c.flows_in_group = ws.group_flows_[first.group];
    for (const Choice& x : choices) c.flows.push_back(x.flow);
    std::sort(c.flows.begin(), c.flows.end());
    bool found = false;
    for (std::size_t a = 0; a < choices.size() && !found; ++a) {
      for (std::size_t b = a + 1; b < choices.size() && !found; ++b) {
        const auto& ka = requests[choices[a].flow].key;
        const auto& kb = requests[choices[b].flow].key;
        if (masked(ka, fields) == masked(kb, fields)) {
          c.cause = CollisionCause::kMissingEntropy;
          c.witness_a = choices[a].flow;
          c.witness_b = choices[b].flow;
          c.identical_inputs = true;
          found = true;
        }
      }
    }
    if (!found && !source_port_hashed) {
      c.cause = CollisionCause::kMissingEntropy;
      c.witness_a = c.flows[0];
      c.witness_b = c.flows[1];
      found = true;
    }
    std::vector<std::uint32_t>& forced = ws.forced_;
    forced.clear();
    for (const Choice& x : choices) {
      const PathHop& hop = paths[x.flow].hops[x.hop];
      const PathHop* prev = previous_decision(f, paths[x.flow], x.hop);
      if (prev != nullptr && coupling.determined(prev->group, prev->member, hop.group)) forced.push_back(x.flow);
    }
    if (!found && forced.size() >= 2) {
      c.cause = CollisionCause::kPolarization;
      c.witness_a = forced[0];
      c.witness_b = forced[1];
    } else if (!found) {
      c.witness_a = c.flows[0];
      c.witness_b = c.flows[1];
    }
    out.push_back(std::move(c));
  }
  for (const std::uint32_t link : ws.slot_link_) ws.link_slot_[link] = kNone;
  for (const std::uint32_t g : ws.entered_) {
    ws.group_flows_[g] = 0;
    ws.group_last_[g] = 0;
  }
}

NoPath explain_no_path(const ForwardingState& f, const RouteRequest& request, const FlowPath& path,
                       std::uint32_t flow) {
  const Topology& t = f.topology();
  NoPath out;
  out.flow = flow;
  out.stopped_at = path.hops.empty() ? request.src : t.other_end(path.hops.back().link, path.hops.back().from);
  out.culprit = out.stopped_at;
  if (t.plane[request.src.value()] != t.plane[request.dst.value()]) {
    out.reason = NoPathReason::kOtherPlane;
  } else if (f.failed(LinkId(request.src.value()))) {
    out.reason = NoPathReason::kSourceNicDown;
  } else if (f.failed(LinkId(request.dst.value()))) {
    out.reason = NoPathReason::kDestinationNicDown;
  } else if (all_uplinks_down(f, out.stopped_at)) {
    out.reason = NoPathReason::kAllUplinksDown;
  } else if (const VertexId leaf = f.leaf_of(request.dst); leaf != out.stopped_at && all_uplinks_down(f, leaf)) {
    out.reason = NoPathReason::kAllUplinksDown;
    out.culprit = leaf;
  }
  return out;
}

HashScenario analyze_hash_scenario(const PathWalker& walker, std::span<const RouteRequest> requests,
                                   const DecisionCoupling& coupling) {
  HashScenario s;
  s.paths.resize(requests.size());
  for (std::uint32_t i = 0; i < requests.size(); ++i) {
    s.paths[i].reached = walker.walk(requests[i].src, requests[i].dst, requests[i].key, s.paths[i].hops);
  }
  s.routes = routes_of_paths(s.paths, walker.forwarding());
  s.loads = summarize_loads(s.routes, walker.forwarding());
  s.collisions = find_collisions(walker, requests, s.paths, coupling);
  for (std::uint32_t i = 0; i < requests.size(); ++i) {
    if (!s.paths[i].reached) s.unreachable.push_back(explain_no_path(walker.forwarding(), requests[i], s.paths[i], i));
  }
  std::vector<std::set<std::uint32_t>> used(coupling.stages().size());
  for (const FlowPath& p : s.paths) {
    for (const PathHop& h : p.hops) {
      const int stage = h.group == kNoGroup ? -1 : coupling.stage_of(h.group);
      if (stage >= 0) used[static_cast<std::size_t>(stage)].insert(h.link.value());
    }
  }
  for (const auto& u : used) s.stage_links_used.push_back(static_cast<std::uint32_t>(u.size()));
  return s;
}

}  // namespace ct
