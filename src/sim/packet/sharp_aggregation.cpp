#include "sim/packet/sharp_aggregation.h"

#include <algorithm>
#include <cassert>
#include <map>

namespace ct {

SharpAggregation::SharpAggregation(PacketEngine& engine, std::int64_t mtu, const SharpFigures& figures)
    : engine_(engine), mtu_(mtu), figures_(figures) {
  assert(mtu >= 1 && figures.trees >= 1);
}

std::string SharpAggregation::add_tree(std::span<const SharpTreeFlow> flows) {
  if (flows.empty()) return "a SHARP tree without flows";
  const auto tree = static_cast<std::uint32_t>(trees_.size());
  Tree& t = trees_.emplace_back();
  t.size = engine_.size(flows.front().flow);
  t.vl = engine_.vl(flows.front().flow);
  // The tree's switches, in vertex order.
  std::map<std::uint32_t, std::uint32_t> node_of;
  for (const SharpTreeFlow& f : flows) {
    if (f.from_switch) node_of.emplace(f.from, 0);
    if (f.to_switch) node_of.emplace(f.to, 0);
  }
  t.nodes_begin = static_cast<std::uint32_t>(nodes_.size());
  for (auto& [vertex, index] : node_of) {
    index = static_cast<std::uint32_t>(nodes_.size());
    Node& n = nodes_.emplace_back();
    n.tree = tree;
    n.vertex = vertex;
    if (vertex >= active_.size()) active_.resize(vertex + 1, 0);
  }
  t.nodes_end = static_cast<std::uint32_t>(nodes_.size());
  for (const SharpTreeFlow& f : flows) {
    if (engine_.size(f.flow) != t.size) return "the flows of a SHARP tree differ in size";
    if (f.flow >= roles_.size()) roles_.resize(f.flow + 1);
    Role& r = roles_[f.flow];
    r.tree = tree;
    r.up = f.up;
    r.channel = f.channel;
    if (f.up) {
      if (!f.to_switch) return "a SHARP tree's up edge ends at a NIC";
      r.receiver = node_of[f.to];
      Node& to = nodes_[r.receiver];
      r.index = static_cast<std::uint32_t>(to.up_in.size());
      to.up_in.push_back(f.flow);
      to.arrived.push_back(0);
      if (f.from_switch) {
        r.sender = node_of[f.from];
        if (nodes_[r.sender].up_out != kNone) return "a switch with two parents in a SHARP tree";
        nodes_[r.sender].up_out = f.flow;
      } else {
        t.sources.push_back(f.flow);
      }
    } else {
      if (!f.from_switch) return "a SHARP tree's down edge starts at a NIC";
      r.sender = node_of[f.from];
      Node& from = nodes_[r.sender];
      r.index = static_cast<std::uint32_t>(from.down_out.size());
      from.down_out.push_back(f.flow);
      from.down_sent.push_back(0);
      if (f.to_switch) {
        r.receiver = node_of[f.to];
        if (nodes_[r.receiver].down_in != kNone) return "a switch fed twice from above in a SHARP tree";
        nodes_[r.receiver].down_in = f.flow;
      } else {
        t.undelivered += t.size;
      }
    }
  }
  std::uint32_t roots = 0;
  for (std::uint32_t k = t.nodes_begin; k < t.nodes_end; ++k) {
    const Node& n = nodes_[k];
    if (n.up_in.empty() || n.down_out.empty()) return "a switch of a SHARP tree without children";
    if ((n.up_out == kNone) != (n.down_in == kNone)) return "a switch of a SHARP tree with a parent one way only";
    roots += n.up_out == kNone ? 1 : 0;
  }
  if (roots != 1) return "a SHARP tree must have one root switch";
  ++stats_.trees;
  return {};
}

std::uint32_t SharpAggregation::chunk_bytes(const Tree& t, std::uint32_t chunk) const {
  return static_cast<std::uint32_t>(std::min<std::int64_t>(mtu_, t.size - static_cast<std::int64_t>(chunk) * mtu_));
}

bool SharpAggregation::fits(const Tree& t) const {
  for (std::uint32_t k = t.nodes_begin; k < t.nodes_end; ++k) {
    if (active_[nodes_[k].vertex] >= figures_.trees) return false;
  }
  return true;
}

void SharpAggregation::grant(std::uint32_t tree) {
  const Tree& t = trees_[tree];
  for (std::uint32_t k = t.nodes_begin; k < t.nodes_end; ++k) {
    stats_.peak_trees = std::max(stats_.peak_trees, ++active_[nodes_[k].vertex]);
  }
  stats_.wait += engine_.now() - t.asked_at;
  for (const std::uint32_t f : t.sources) engine_.allow(f, t.size);
}

void SharpAggregation::finish(std::uint32_t tree) {
  const Tree& t = trees_[tree];
  for (std::uint32_t k = t.nodes_begin; k < t.nodes_end; ++k) --active_[nodes_[k].vertex];
  std::vector<std::uint32_t> still;
  for (const std::uint32_t w : waiting_) {
    if (fits(trees_[w])) {
      grant(w);
    } else {
      still.push_back(w);
    }
  }
  waiting_ = std::move(still);
}

void SharpAggregation::on_activate(std::uint32_t flow) {
  const std::uint32_t tree = roles_[flow].tree;
  Tree& t = trees_[tree];
  if (t.asked) return;
  t.asked = true;
  t.asked_at = engine_.now();
  if (fits(t)) {
    grant(tree);
  } else {
    waiting_.push_back(tree);
    ++stats_.waited;
  }
}

bool SharpAggregation::on_deliver(std::uint32_t flow, std::uint32_t bytes) {
  const Role& r = roles_[flow];
  if (r.receiver == kNone) {  // at a NIC: the result
    Tree& t = trees_[r.tree];
    t.undelivered -= bytes;
    if (t.undelivered == 0) finish(r.tree);
    return false;
  }
  Node& n = nodes_[r.receiver];
  if (r.up) {
    ++n.arrived[r.index];
    const std::uint32_t all = *std::min_element(n.arrived.begin(), n.arrived.end());
    for (; n.reduced < all; ++n.reduced) {
      engine_.schedule_aggregation(engine_.now() + figures_.switch_latency + figures_.reduction_latency, r.receiver * 2);
    }
  } else {
    ++n.down_arrived;
    engine_.schedule_aggregation(engine_.now() + figures_.switch_latency, r.receiver * 2 + 1);
  }
  return true;
}

// A chunk ready at a node (reduced, or come down from the parent): the edges it leaves on may send it.
void SharpAggregation::hand_on(std::uint32_t node, bool down) {
  Node& n = nodes_[node];
  const Tree& t = trees_[n.tree];
  const std::uint32_t bytes = chunk_bytes(t, down ? n.made_down++ : n.made_up++);
  if (!down && n.up_out != kNone) {
    engine_.allow(n.up_out, bytes);
    return;
  }
  for (const std::uint32_t f : n.down_out) engine_.allow(f, bytes);
}

void SharpAggregation::on_timer(std::uint32_t tag) { hand_on(tag / 2, (tag & 1U) != 0); }

void SharpAggregation::free_children(const Node& node, std::uint32_t chunk) {
  const Tree& t = trees_[node.tree];
  const std::uint32_t bytes = chunk_bytes(t, chunk);
  for (const std::uint32_t child : node.up_in) engine_.release_buffer(roles_[child].channel, t.vl, bytes);
}

void SharpAggregation::on_sent(std::uint32_t flow, std::uint32_t /*bytes*/) {
  const Role& r = roles_[flow];
  if (r.sender == kNone) return;  // a NIC's contribution: nothing kept for it
  Node& n = nodes_[r.sender];
  if (r.up) {  // the reduced chunk left: its inputs' blocks are free
    free_children(n, n.up_sent++);
    return;
  }
  ++n.down_sent[r.index];
  const std::uint32_t all = *std::min_element(n.down_sent.begin(), n.down_sent.end());
  for (; n.released < all; ++n.released) {  // every copy left: the chunk's blocks are free
    if (n.up_out == kNone) {
      free_children(n, n.released);
    } else {
      engine_.release_buffer(roles_[n.down_in].channel, trees_[n.tree].vl, chunk_bytes(trees_[n.tree], n.released));
    }
  }
}

}  // namespace ct
