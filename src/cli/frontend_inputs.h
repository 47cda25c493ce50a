// The front door's model as the frontend commands load it (trace, lint): the manifests, the DNS
// views when named.conf is given, and the cluster's graph when the command read a spec. The
// readers' warnings go to stderr; their errors come back located.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/result.h"
#include "frontend/request_trace.h"

namespace ct::cli {

Result<FrontendModel> load_frontend_model(const std::vector<std::string>& manifests, const std::string& named_conf,
                                          const Context& context);

// --now (break, spof): the wall-clock time of a failure study's t = 0 in RFC 3339, against which
// the certificates' dates are placed; nullopt leaves it unset. An error at `command line: --now`.
Diagnostics set_study_clock(FrontendModel& model, const std::optional<std::string>& now);

}  // namespace ct::cli
