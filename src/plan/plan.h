// The plan of a backend fabric: what `clustertwin plan` reports. A plain value (no pointers, no
// references into the topology or the catalog), so it can be compared, printed and snapshot-tested.
// Every figure is measured on a built Topology by planner.h, except the scale limits, which follow
// from the switch radix (ct::max_endpoints). The counting rules are in docs/models/planner.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/units.h"

namespace ct {

// One switch tier of one plane (or of all planes added up).
struct TierFigures {
  int tier = 0;                  // 1 leaf, 2 spine, 3 core
  long long switches = 0;
  long long ports_used = 0;      // logical ports with a cable: the switches' degrees
  long long ports_free = 0;      // logical ports minus degree
  long long links = 0;           // links whose upper end is at this tier (tier 1: NIC-leaf)
  BitsPerSecond link_speed;      // capacity of this tier's links when they all agree, else 0
  BitsPerSecond down_capacity;   // sum over the tier's switches of link capacity toward the NICs
  BitsPerSecond up_capacity;     // sum over the tier's switches of link capacity away from them
  double oversubscription = 0;   // down_capacity / up_capacity; 0 when the tier has no uplinks
};

// Optics and cables of one medium (one Catalog::optics entry).
// The medium named for links the catalog has no optic or cable for.
inline constexpr const char* kNoMedium = "no catalog optic";

struct MediaFigures {
  int optic = -1;                // index into Catalog::optics; -1: the catalog has none for the link
  std::string id = kNoMedium;    // catalog id, kNoMedium when optic is -1
  std::string kind = "-";        // transceiver, dac, acc, aoc
  long long links = 0;
  long long switch_modules = 0;  // transceivers in switch cages (one per used cage)
  long long nic_modules = 0;     // transceivers in NIC cages (one per used NIC cage)
  long long cables = 0;          // fibers (transceiver links) or cables: one per link
};

struct PlaneFigures {
  int plane = 0;
  long long endpoints = 0;                   // NIC logical ports in this plane
  std::vector<TierFigures> tiers;            // tier 1 first
  std::vector<MediaFigures> media;           // by optic index; NIC modules of the plane's ports
  BitsPerSecond bisection;                   // max-flow between the two halves of the hosts
  BitsPerSecond half_injection;              // endpoint capacity of the smaller half
};

// One line of a power or cost bill: count x unit figure, the unit unknown when the catalog has none.
struct BillLine {
  std::string part;                 // catalog id
  std::string item;                 // "switch", "NIC", "transceiver", "cable", "cable end"
  long long count = 0;
  std::optional<double> unit;       // W or USD per item
  [[nodiscard]] std::optional<double> total() const {
    return unit ? std::optional<double>(*unit * static_cast<double>(count)) : std::nullopt;
  }
};

struct Bill {
  std::vector<BillLine> lines;
  double known_total = 0;            // sum of the lines whose unit is known
  std::vector<std::string> unknown;  // parts whose unit figure the catalog does not give
  [[nodiscard]] bool complete() const { return unknown.empty(); }
};

// Switch hops between two representative GPUs (NIC ports), by breadth-first search per plane.
struct HopPair {
  std::string relation;                      // "same leaf", "same host, other rail", ...
  long long host_a = 0, host_b = 0;
  int rail_a = 0, rail_b = 0;
  std::vector<int> switch_hops;              // per plane; -1 when unreachable
  std::vector<std::uint64_t> shortest_paths; // per plane: equal-cost paths (parallel links apart)
};

// The largest cluster the switch reaches for a plane count (each NIC cage split that many ways).
struct ScaleLimit {
  int planes = 1;
  BitsPerSecond port_speed;
  int radix = 0;                   // logical switch ports at port_speed; 0: the switch cannot
  long long gpus_2_tiers = 0;
  long long gpus_3_tiers = 0;
  bool chosen = false;             // the design being planned
};

// What removing one element takes away from the GPUs: each GPU keeps the share of its up capacity
// that still reaches the top tier (see docs/models/planner.md).
struct FailureDomain {
  std::string element;             // "NIC port", "NIC", "leaf", "spine", "core"
  std::string removed;             // name of the vertex (or vertices) removed
  long long gpus_affected = 0;     // GPUs that lose any share
  double min_share_lost = 0;       // among the affected GPUs
  double max_share_lost = 0;
  double fabric_share_lost = 0;    // of the sum of all GPUs' bandwidth
};

// The frontend network (spec `frontend:`): storage, data loading, checkpoints, management and
// north-south traffic on its own NICs and switches (a 2-tier leaf-spine, topology/builder.h). Counted
// on the built topology by the same rules as a backend plane.
struct FrontendFigures {
  std::string switch_model, nic_model;
  BitsPerSecond speed;              // every frontend link
  int ports_per_host = 0;           // frontend logical ports per host
  long long nics = 0;               // frontend NICs (DPUs) in the cluster
  long long endpoints = 0;          // frontend ports in the cluster
  double oversubscription_asked = 1;  // spec frontend.oversubscription (leaf down:up)
  std::vector<TierFigures> tiers;   // leaf, spine
  std::vector<MediaFigures> media;  // by optic index
  BitsPerSecond bisection;          // max-flow between the host halves, as for a plane
  BitsPerSecond half_injection;
  long long backend_links = 0;      // links joining the frontend to the backend: 0 when separate
  Bill power;                       // W: frontend switches, NICs and modules
  Bill cost;                        // USD
};

struct Plan {
  std::string name;
  std::string topology;            // rail-optimized, fat-tree, leaf-spine
  std::string node_model, switch_model, nic_model;
  long long hosts = 0;
  long long gpus = 0;
  int gpus_per_host = 0;
  int nics_per_host = 0;           // backend NICs (rails) per host
  long long nics = 0;              // backend NICs in the cluster
  int planes = 1;
  int tiers = 2;
  long long cross_plane_links = 0;         // backend links joining two planes, counted: 0 = disjoint

  std::vector<PlaneFigures> plane_figures;
  std::vector<TierFigures> total_tiers;    // all planes added up
  std::vector<MediaFigures> total_media;   // a NIC module serving several planes counted once
  BitsPerSecond bisection;                 // sum over planes
  BitsPerSecond half_injection;            // sum over planes
  std::vector<HopPair> hops;
  std::vector<ScaleLimit> scale_limits;    // by plane count; one is `chosen`
  std::vector<FailureDomain> failure_domains;
  Bill power;                              // W
  Bill cost;                               // USD
  std::optional<FrontendFigures> frontend; // when the spec has a frontend: block
  Diagnostics warnings;                    // catalog gaps: links with no medium (plan/media_gaps.h)
};

}  // namespace ct
