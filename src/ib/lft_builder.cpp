#include "ib/lft_builder.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/threads.h"

namespace ct {

std::vector<LftTarget> make_targets(const SwitchGraph& graph, const LidAssignment& lids) {
  std::vector<std::uint32_t> order = graph.guid_order();
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return graph.cas(a).size() > graph.cas(b).size(); });
  std::vector<LftTarget> targets;
  for (const std::uint32_t s : order) {
    for (const auto& ca : graph.cas(s)) {
      const auto base = lids.base_lid(ca.ca, ca.ca_port);
      if (base == 0) continue;
      targets.push_back({ca.ca, ca.ca_port, s, ca.port, base, false});
    }
  }
  for (const std::uint32_t s : graph.guid_order()) {
    const auto base = lids.base_lid(graph.node(s), 0);
    if (base != 0) targets.push_back({graph.node(s), 0, s, 0, base, true});
  }
  return targets;
}

void parallel_for_switches(std::uint32_t n, int threads, const std::function<void(std::uint32_t)>& body) {
  unsigned count = threads > 0 ? static_cast<unsigned>(threads) : std::max(1U, std::thread::hardware_concurrency());
  count = std::min<unsigned>(count, std::max<std::uint32_t>(n, 1));
  if (count <= 1) {
    for (std::uint32_t s = 0; s < n; ++s) body(s);
    return;
  }
  std::atomic<std::uint32_t> next{0};
  auto worker = [&] {
    for (std::uint32_t s = next++; s < n; s = next++) body(s);
  };
  run_on_threads(count, [&](unsigned) { worker(); });
}

namespace {

// Port for LID offset i > 0 of target t at switch s (see the header).
std::uint8_t pick_lmc_port(const SwitchGraph& graph, std::uint32_t s, const std::vector<std::uint8_t>& cand,
                           const std::vector<std::uint32_t>& count, const std::uint8_t* row, std::uint32_t base,
                           std::uint32_t offset) {
  const std::uint8_t previous = row[base + offset - 1];
  auto used_peer = [&](std::uint32_t peer) {
    for (std::uint32_t j = 0; j < offset; ++j) {
      if (row[base + j] != IbRouting::kNoPath && graph.peer_switch(s, row[base + j]) == peer) return true;
    }
    return false;
  };
  std::size_t start = 0;
  while (start < cand.size() && cand[start] <= previous) ++start;
  std::uint8_t best = IbRouting::kNoPath;
  bool best_new_peer = false;
  std::uint32_t best_count = 0;
  for (std::size_t k = 0; k < cand.size(); ++k) {
    const std::uint8_t p = cand[(start + k) % cand.size()];
    const bool new_peer = !used_peer(graph.peer_switch(s, p));
    const bool better = best == IbRouting::kNoPath || (new_peer && !best_new_peer) ||
                        (new_peer == best_new_peer && count[p] < best_count);
    if (better) {
      best = p;
      best_new_peer = new_peer;
      best_count = count[p];
    }
  }
  return best;
}

}  // namespace

void fill_balanced(const SwitchGraph& graph, const std::vector<LftTarget>& targets, const CandidatePorts& candidates,
                   int threads, IbRouting& routing) {
  const std::uint32_t lids_per_port = static_cast<std::uint32_t>(routing.lids.lids_per_port());
  parallel_for_switches(graph.size(), threads, [&](std::uint32_t s) {
    std::vector<std::uint32_t> count(static_cast<std::size_t>(graph.port_count(s)) + 1, 0);
    std::vector<std::uint8_t> cand;
    std::uint32_t cand_for = SwitchGraph::kNone;
    std::uint8_t* row = routing.row(s);
    for (std::uint32_t offset = 0; offset < lids_per_port; ++offset) {
      for (const LftTarget& t : targets) {
        if (t.is_switch && offset > 0) continue;
        const std::uint32_t lid = t.base_lid + offset;
        if (t.dest_switch == s) {
          row[lid] = t.switch_port;  // 0 for the switch itself
          continue;
        }
        if (cand_for != t.dest_switch) {
          cand.clear();
          candidates(s, t.dest_switch, cand);
          cand_for = t.dest_switch;
        }
        if (cand.empty()) continue;  // unreachable: stays kNoPath
        std::uint8_t best = cand[0];
        if (offset == 0) {
          for (const std::uint8_t p : cand) {
            if (count[p] < count[best]) best = p;
          }
        } else {
          best = pick_lmc_port(graph, s, cand, count, row, t.base_lid, offset);
        }
        row[lid] = best;
        if (!t.is_switch) ++count[best];
      }
    }
  });
}

}  // namespace ct
