// The front door's model as the frontend commands load it (trace, lint): the manifests, the DNS
// views when named.conf is given, and the cluster's graph when the command read a spec. The
// readers' warnings go to stderr; their errors come back located.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "core/result.h"
#include "frontend/request_trace.h"

namespace ct::cli {

Result<FrontendModel> load_frontend_model(const std::vector<std::string>& manifests, const std::string& named_conf,
                                          const Context& context);

}  // namespace ct::cli
