#include "sim/fault_timeline.h"

#include <algorithm>

namespace ct {

FaultTimeline::FaultTimeline(const Scenario& scenario, std::size_t link_count) : s_(scenario) {
  routing_down_.assign(link_count, 0);
  for (std::uint32_t i = 0; i < s_.faults.size(); ++i) {
    const FaultSpec& f = s_.faults[i];
    for (const LinkId l : f.links) events_.push_back({FaultEvent::Kind::kCapacity, f.at, i, l, f.fraction});
    if (f.kind != FaultKind::kDegrade) events_.push_back({FaultEvent::Kind::kReconverge, f.at + f.convergence, i, LinkId(), 1.0});
    last_event_ = std::max(last_event_, f.kind == FaultKind::kDegrade ? f.at : f.at + f.convergence);
  }
}

std::vector<LinkId> FaultTimeline::reconverge(std::uint32_t fault) {
  const FaultSpec& f = s_.faults[fault];
  for (const LinkId l : f.links) routing_down_[l.value()] = f.kind == FaultKind::kDown ? 1 : 0;
  std::vector<LinkId> down;
  for (std::uint32_t l = 0; l < routing_down_.size(); ++l) {
    if (routing_down_[l] != 0) down.push_back(LinkId(l));
  }
  return down;
}

}  // namespace ct
