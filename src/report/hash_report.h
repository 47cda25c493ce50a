// The text report of `clustertwin hash`: the ECMP groups of the fabric, each flow's path hop by
// hop, flows per link and per ECMP group, collisions with their causes and the per-tier evidence,
// each flow's fair throughput; with Monte Carlo, the simulated statistics beside their closed
// forms; with --compare, one row per load-balancing scheme. Pure function of the study (and the
// listing limit): the same study gives the same bytes.
#pragma once

#include <cstddef>
#include <string>

#include "analysis/hash_study.h"

namespace ct {

struct HashReportOptions {
  std::size_t max_listed = 64;  // paths, links, groups and collisions listed at most
};

std::string hash_report(const HashStudy& study, const HashReportOptions& options = {});

}  // namespace ct
