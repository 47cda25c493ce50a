// Hand-written FlowRoutes (routing/flow_routes.h) for tests of the rate and load models (header
// only, tests only): one call per sub-flow, its crossings listed as (directed link, fraction).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>

#include "core/ids.h"
#include "routing/flow_routes.h"
#include "routing/path_walker.h"

namespace ct::testing_support {

// An upward crossing of link `link` with the given fraction.
inline std::pair<std::uint32_t, double> up(std::uint32_t link, double fraction = 1.0) {
  return {directed_link(LinkId(link), true), fraction};
}

// Appends a sub-flow of `flow` in `epoch` carrying `share` of the flow's bytes of that epoch.
inline void add_subflow(FlowRoutes& r, std::uint32_t flow, std::uint32_t epoch, double share,
                        std::initializer_list<std::pair<std::uint32_t, double>> crossings) {
  r.start_subflow(flow, epoch, share);
  for (const auto& [link, fraction] : crossings) r.add(link, fraction);
}

// `flows` flows, all reached, one epoch, none routed yet.
inline FlowRoutes empty_routes(std::uint32_t flows, std::uint32_t epochs = 1) {
  FlowRoutes r;
  r.flow_count = flows;
  r.epochs = epochs;
  r.reached.assign(flows, 1);
  return r;
}

}  // namespace ct::testing_support
