// The input of the max-min solver: constraints (resources with a capacity) and flows (variables)
// that each cross a list of constraints, stored as a struct of dense arrays. The solver knows
// nothing about switches or cables: the caller decides what a constraint is (one direction of a
// cable, a NIC, a PCIe link) and numbers it.
//
// Paths are CSR-like: flow f crosses path_pool[path_begin[f] .. path_begin[f] + path_size[f]).
// The pool is append-only so that a flow can be given a new path (rerouting) without moving the
// others: the old slice simply stops being referenced.
//
// Each hop has a fraction a in (0, 1] (path_fraction, parallel to path_pool): the flow uses a x its
// rate of that constraint. 1 on every hop of a single path; a flow whose packets are sprayed over
// k equal-cost members crosses each member with a = 1/k (per tier, multiplied along the tree), so
// one variable models the whole spread. While every hop's fraction is 1 (hashed paths: the common
// case, millions of hops) path_fraction stays empty and fractions() are empty spans, meaning 1 on
// every hop; the first fraction below 1 fills it in with the 1s before it. A product a x v with
// a = 1 is v exactly, so a reader that skips the multiplication computes the same bits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/ids.h"
#include "core/strong_id.h"

namespace ct {

// A resource shared by flows: one direction of a cable, a NIC port, ... Dense index into
// MaxMinSystem::capacity.
using ConstraintId = StrongId<struct ConstraintTag>;

constexpr double kNoRateCap = std::numeric_limits<double>::infinity();

struct MaxMinSystem {
  // ---- constraints ----
  std::vector<double> capacity;  // bits per second, >= 0; 0 = failed (its flows get rate 0)

  // ---- flows ----
  std::vector<std::uint32_t> path_begin;  // index of the flow's first hop in path_pool
  std::vector<std::uint32_t> path_size;   // number of hops, >= 1
  std::vector<double> weight;             // > 0; rate = weight x fair-share level
  std::vector<double> rate_cap;           // bits per second, kNoRateCap when none (e.g. a NIC limit)
  std::vector<ConstraintId> path_pool;
  std::vector<double> path_fraction;  // parallel to path_pool, in (0, 1]; empty: every fraction is 1

  [[nodiscard]] std::size_t constraint_count() const { return capacity.size(); }
  [[nodiscard]] std::size_t flow_count() const { return path_begin.size(); }

  [[nodiscard]] std::span<const ConstraintId> path(FlowId f) const {
    return {path_pool.data() + path_begin[f.value()], path_size[f.value()]};
  }
  // Flow f's fractions, one per hop; empty when every fraction of the system is 1.
  [[nodiscard]] std::span<const double> fractions(FlowId f) const {
    if (path_fraction.empty()) return {};
    return {path_fraction.data() + path_begin[f.value()], path_size[f.value()]};
  }
  // The fraction of path-pool element e.
  [[nodiscard]] double fraction_at(std::size_t e) const { return path_fraction.empty() ? 1.0 : path_fraction[e]; }

  ConstraintId add_constraint(double capacity_bps) {
    capacity.push_back(capacity_bps);
    return ConstraintId(capacity.size() - 1);
  }

  // PRECONDITION: path is non-empty, names existing constraints, and names no constraint twice;
  // weight > 0; cap > 0; fractions empty (all 1) or one per hop, each in (0, 1].
  FlowId add_flow(std::span<const ConstraintId> hops, double flow_weight = 1.0, double cap = kNoRateCap,
                  std::span<const double> hop_fractions = {}) {
    path_begin.push_back(0);
    path_size.push_back(0);
    weight.push_back(flow_weight);
    rate_cap.push_back(cap);
    const FlowId f(path_begin.size() - 1);
    set_path(f, hops, hop_fractions);
    return f;
  }

  // Builds a flow's path in place, hop by hop, without a temporary: begin_flow starts a flow with
  // no hops and add_hop appends one to the flow begun last. PRECONDITION: no set_path between the
  // two; the complete path meets add_flow's (a flow left without hops must not be solved).
  FlowId begin_flow(double flow_weight = 1.0, double cap = kNoRateCap) {
    path_begin.push_back(static_cast<std::uint32_t>(path_pool.size()));
    path_size.push_back(0);
    weight.push_back(flow_weight);
    rate_cap.push_back(cap);
    return FlowId(path_begin.size() - 1);
  }
  void add_hop(ConstraintId c, double fraction = 1.0) {
    if (fraction != 1.0 || !path_fraction.empty()) {
      path_fraction.resize(path_pool.size(), 1.0);
      path_fraction.push_back(fraction);
    }
    path_pool.push_back(c);
    ++path_size.back();
  }

  // Room for `flows` more flows and `hops` more hops without reallocating (a hint; growth stays
  // geometric, so many small hints cost no more than none).
  template <typename T>
  static void reserve_more(std::vector<T>& v, std::size_t more) {
    if (v.capacity() - v.size() < more) v.reserve(std::max(v.size() + more, 2 * v.capacity()));
  }
  void reserve_more(std::size_t flows, std::size_t hops) {
    for (auto* v : {&path_begin, &path_size}) reserve_more(*v, flows);
    for (auto* v : {&weight, &rate_cap}) reserve_more(*v, flows);
    reserve_more(path_pool, hops);
    if (!path_fraction.empty()) reserve_more(path_fraction, hops);
  }

  // Removes every flow and keeps the constraints; the arrays keep their storage, so a system
  // refilled with no more flows and hops than before allocates nothing (per-trial solves).
  void clear_flows() {
    path_begin.clear();
    path_size.clear();
    weight.clear();
    rate_cap.clear();
    path_pool.clear();
    path_fraction.clear();
  }

  // Gives flow f a new path (appended to the pool). Same PRECONDITION on hops as add_flow.
  void set_path(FlowId f, std::span<const ConstraintId> hops, std::span<const double> hop_fractions = {}) {
    path_begin[f.value()] = static_cast<std::uint32_t>(path_pool.size());
    path_size[f.value()] = static_cast<std::uint32_t>(hops.size());
    const bool ones = std::all_of(hop_fractions.begin(), hop_fractions.end(), [](double a) { return a == 1.0; });
    const bool unit_system = path_fraction.empty();  // every fraction so far 1
    if (unit_system && !ones) path_fraction.resize(path_pool.size(), 1.0);
    path_pool.insert(path_pool.end(), hops.begin(), hops.end());
    if (unit_system && ones) return;
    if (ones) {
      path_fraction.insert(path_fraction.end(), hops.size(), 1.0);
    } else {
      path_fraction.insert(path_fraction.end(), hop_fractions.begin(), hop_fractions.end());
    }
  }
};

}  // namespace ct
