// The failure flags of `break` (and `spof --fail`-free studies): one repeatable option per
// survival/failure_set.h kind (--node, --switch, --link, --bgp-peer, --dns-server, --disk,
// --issuer, --address-pool), and `--at SECONDS`, which sets the time of the failure named just
// before it on the command line (CLI11's parse order); a failure without --at fails at t = 0.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/result.h"
#include "survival/failure_set.h"

namespace ct::cli {

class FailureFlags {
 public:
  // Adds the eight failure options, and --at when `with_at`.
  void add_to(CLI::App& app, bool with_at);
  // The failures in command-line order with their times. Errors (usage): --at before any failure,
  // or twice for one failure.
  [[nodiscard]] Result<std::vector<Failure>> in_order(const CLI::App& app) const;

 private:
  std::map<FailureKind, std::vector<std::string>> names_;
  std::vector<double> at_;
};

}  // namespace ct::cli
