// Reading a BIND configuration: named.conf, then every zone file it names. Relative zone file
// names are taken relative to named.conf's folder (named itself resolves them against its
// `directory` option, a path on the name server).
#pragma once

#include <string>

#include "core/result.h"
#include "frontend/dns_views.h"

namespace ct {

Result<DnsModel> load_dns(const std::string& named_conf_path);

}  // namespace ct
