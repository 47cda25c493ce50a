// The options of a live Prometheus source (`diagnose --prometheus URL --from T1 --to T2`) and
// reading its counters through the HTTP client (io/http_client.h) into CounterRates
// (diagnose/prometheus_source.h). Credentials are read from files, never from the command line,
// and never printed.
#pragma once

#include <string>

#include "cli/command.h"
#include "diagnose/counter_rates.h"

namespace ct::cli {

struct PrometheusFlags {
  std::string url;
  std::string from;
  std::string to;
  bool raw = false;
  std::string token_file;
  std::string basic_auth_file;
  std::string ca_file;
  double timeout_s = 30;
};

// Adds --prometheus, --from, --to, --prometheus-raw, --prometheus-token-file,
// --prometheus-basic-auth-file, --prometheus-ca and --prometheus-timeout to `app`. Returns the
// --prometheus option.
CLI::Option* add_prometheus_flags(CLI::App& app, PrometheusFlags& flags);

// "" when the flags can be used (or no --prometheus is given), else the usage error (exit 2):
// --from and --to missing, not a time (RFC 3339 or Unix seconds), or not in order; a URL that
// carries a user:password@ part.
std::string prometheus_usage_error(const PrometheusFlags& flags);

// The window's counters from the server. PRECONDITION: prometheus_usage_error(flags) is "".
// Errors at FILE:1:1 for a credential file whose first line is empty, lacks USER:PASSWORD's ':'
// or holds a control character, and for a CA file with no PEM certificate.
Result<CounterRates> read_prometheus_counters(const PrometheusFlags& flags, const RateOptions& rate_options);

}  // namespace ct::cli
