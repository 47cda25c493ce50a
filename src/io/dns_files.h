// Reading a BIND configuration: named.conf, then every zone file it names and every file those
// $INCLUDE. named opens both kinds of name relative to its working folder, the `directory` option,
// a path on the name server; the twin reads a copy of the configuration, and named.conf's folder
// stands for that working folder: zone files and included files are taken relative to it (an
// included file not relative to the file that includes it). The zones' load warnings are in
// DnsModel::warnings. A named.conf that declares no zone (empty, or views without zones) is an
// error at file:1:1.
#pragma once

#include <string>

#include "core/result.h"
#include "frontend/dns_views.h"

namespace ct {

Result<DnsModel> load_dns(const std::string& named_conf_path);

}  // namespace ct
