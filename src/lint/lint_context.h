// What a lint rule and the publishing checklist read: the frontend model as `trace` builds it, and
// the DNS clients the rules ask from (lint.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "frontend/request_trace.h"
#include "frontend/volume_replicas.h"

namespace ct {

struct ChecklistApp;

// The model a rule reads, with the clients the DNS rules ask from.
struct LintContext {
  const FrontendModel& model;
  // The address cluster pods resolve names from: the first Node's InternalIP (CoreDNS forwards
  // to named from the node, so cert-manager's self-check sees the view that address selects).
  std::optional<std::uint32_t> inside_client;
  // A client of the last view (where the public resolves), when DNS views are given.
  std::optional<std::uint32_t> outside_client;
  // The publishing checklist, computed once before the rules run (its five rules report its gaps).
  const std::vector<ChecklistApp>* checklist = nullptr;
  // The Longhorn replica schedule of the manifests (volume_replicas.h), computed once.
  const LonghornSchedule* schedule = nullptr;
  [[nodiscard]] const LonghornSchedule& longhorn() const { return *schedule; }
};

}  // namespace ct
