// The text report of `clustertwin hash`: the study's notes and warnings (shared NICs, the kernel's
// seed 0), the ECMP groups of the fabric, each flow's path hop by hop, flows without a path and
// why, flows per link and per ECMP group, collisions with their causes and the per-tier evidence
// (links reachable, dependence on the previous decision in bits, the coupling verdict), each
// flow's fair throughput; with Monte Carlo, the simulated statistics beside their closed forms
// (none where the hash has no entropy and every trial is identical); with --compare, one row per
// load-balancing scheme. Pure function of the study (and the
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

// Why a flow has no path, as the report and the JSON say it: "no path: all uplinks of
// p0/leaf/3 are down", "no path: the NIC link of host0/nic0 is down", ...
std::string no_path_text(const HashStudy& study, const NoPath& reason);

}  // namespace ct
