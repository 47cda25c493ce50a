// SHARP in the packet engine's switches: the aggregation trees the workload compiler builds for an
// all-reduce with `algorithm: sharp` (workload/workload_compiler.h), run as reduction in the
// switches instead of independent streams (NVIDIA Scalable Hierarchical Aggregation and Reduction
// Protocol, streaming aggregation; docs/models/packet-engine.md cites the sources).
//
// A tree is one instance, iteration, stage and channel of the operation: one flow per tree edge
// and direction (a NIC's link or a switch-to-switch link, up and down), each of S_c bytes, cut
// into the same chunks (packets of the MTU, the last one smaller). Chunk k:
//   up    every NIC sends it to its leaf. A switch of the tree keeps each child's chunk k in the
//         buffer it arrived in until it has it from every child; latency + reduction latency
//         later one reduced chunk k leaves on its parent edge (the up flow there may inject it).
//         The children's blocks are freed when the reduced chunk's tail has left, so credits (or
//         PFC) hold the children back when the parent edge is slow.
//   root  the switch with no parent: latency + reduction latency after the last child's chunk k,
//         a copy of the result goes down every child edge.
//   down  a switch keeps the chunk that came down and, latency later, sends a copy down every
//         child edge; the blocks are freed when every copy's tail has left. A NIC takes it.
// Aggregation is store-and-forward whatever the switches' forwarding: a chunk is reduced or
// replicated whole, from its tail's arrival.
//
// Trees per switch. A switch takes part in at most `trees` trees at once. A tree asks for a slot
// on every one of its switches when its first flow starts and holds them until its last chunk has
// reached every NIC. A tree that cannot have all of them waits (its NICs send nothing); when a
// tree ends, the waiting trees are granted in the order they asked, each that now fits (first
// fit: a tree on other switches is not held back by one that waits).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/units.h"
#include "sim/packet/packet_engine.h"

namespace ct {

struct SharpFigures {
  TimePs switch_latency{0};     // the switch's port-to-port latency, paid at every switch of the tree
  TimePs reduction_latency{0};  // added at every switch that reduces (up and at the root)
  std::uint32_t trees = 1;      // concurrent trees per switch
};

// One flow of a tree: its one hop from `from` to `to` (vertices; a switch or a NIC port).
struct SharpTreeFlow {
  std::uint32_t flow = 0;     // the engine's flow (gated)
  std::uint32_t channel = 0;  // the engine's channel it crosses
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  bool from_switch = false;
  bool to_switch = false;
  bool up = false;  // towards the root
};

struct SharpStats {
  std::uint32_t trees = 0;
  std::uint32_t waited = 0;       // trees that waited for a free slot
  TimePs wait{0};                 // summed over the trees that waited
  std::uint32_t peak_trees = 0;   // most trees active at once on one switch
};

class SharpAggregation final : public PacketAggregator {
 public:
  // PRECONDITION: engine outlives this; mtu >= 1; figures.trees >= 1.
  SharpAggregation(PacketEngine& engine, std::int64_t mtu, const SharpFigures& figures);

  // One tree, its flows in any order; all of them gated and of one size. Returns an error message
  // when they do not form one tree (each switch with at most one parent edge, one root).
  std::string add_tree(std::span<const SharpTreeFlow> flows);

  [[nodiscard]] const SharpStats& stats() const { return stats_; }

  void on_activate(std::uint32_t flow) override;
  bool on_deliver(std::uint32_t flow, std::uint32_t bytes) override;
  void on_sent(std::uint32_t flow, std::uint32_t bytes) override;
  void on_timer(std::uint32_t tag) override;

 private:
  static constexpr std::uint32_t kNone = 0xFFFF'FFFFU;
  struct Node {  // one switch of one tree
    std::uint32_t tree = 0;
    std::uint32_t vertex = 0;
    std::vector<std::uint32_t> up_in;     // children's up flows
    std::vector<std::uint32_t> arrived;   // per child: chunks arrived
    std::uint32_t up_out = kNone;         // the up flow to the parent (kNone: the root)
    std::uint32_t down_in = kNone;        // the down flow from the parent
    std::vector<std::uint32_t> down_out;  // down flows to the children
    std::vector<std::uint32_t> down_sent; // per child: copies whose tail has left
    std::uint32_t reduced = 0;            // chunks reduced (scheduled)
    std::uint32_t released = 0;           // chunks whose buffers were freed
    std::uint32_t down_arrived = 0;
    std::uint32_t made_up = 0;    // reduced chunks handed to the parent edge (or, at the root, down)
    std::uint32_t made_down = 0;  // chunks from the parent handed down
    std::uint32_t up_sent = 0;
  };
  struct Tree {
    std::uint32_t nodes_begin = 0;
    std::uint32_t nodes_end = 0;
    std::vector<std::uint32_t> sources;  // the NICs' up flows
    std::int64_t size = 0;               // bytes per flow
    std::int64_t undelivered = 0;        // bytes still to reach the NICs
    std::uint8_t vl = 0;
    bool asked = false;
    TimePs asked_at{0};
  };
  struct Role {  // a flow's place in its tree
    std::uint32_t tree = kNone;
    std::uint32_t sender = kNone;    // the node that sends it (kNone: a NIC)
    std::uint32_t receiver = kNone;  // the node that receives it (kNone: a NIC)
    std::uint32_t index = 0;         // its place in the receiver's up_in or the sender's down_out
    std::uint32_t channel = 0;
    bool up = false;
  };

  [[nodiscard]] std::uint32_t chunk_bytes(const Tree& t, std::uint32_t chunk) const;
  [[nodiscard]] bool fits(const Tree& t) const;
  void grant(std::uint32_t tree);
  void finish(std::uint32_t tree);
  void free_children(const Node& node, std::uint32_t chunk);
  void hand_on(std::uint32_t node, bool down);

  PacketEngine& engine_;
  std::int64_t mtu_;
  SharpFigures figures_;
  std::vector<Node> nodes_;
  std::vector<Tree> trees_;
  std::vector<Role> roles_;              // by engine flow
  std::vector<std::uint32_t> active_;    // by vertex: trees holding a slot on the switch
  std::vector<std::uint32_t> waiting_;   // trees that asked, in order
  SharpStats stats_;
};

}  // namespace ct
