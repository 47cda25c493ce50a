// Interface byte counters from a live Prometheus server, through its HTTP API
// (prometheus.io/docs/prometheus/latest/querying/api, as served by Prometheus 2.42), read into the
// same CounterRates that saved scrapes give (counter_rates.h), so both feed one diagnosis.
//
// The window [from, to] (ms since 1970) is D = to - from long. Two ways to read it:
//   increase (default)  per metric, `increase(METRIC[Dms])` and `count_over_time(METRIC[Dms])`
//                       with /api/v1/query_range at start = end = to: Prometheus computes the bytes
//                       as its dashboards do (a counter that goes back is a reset, counted from
//                       zero; the increase extrapolated to the window's edges when the first or last
//                       sample is within 1.1 average intervals of them) and how many samples it
//                       used. rate = bytes / D.
//   raw                 per metric, the range selector `METRIC[Dms]` with /api/v1/query at time =
//                       to: every stored sample with its own time, read by compute_rates exactly as
//                       saved scrapes are, wraps of 32-bit IF-MIB counters included (Prometheus'
//                       increase() takes such a wrap for a reset and loses up to 2^32 bytes).
// Metrics and labels (the conventions of the exporters that write them):
//   node_exporter   node_network_{transmit,receive}_bytes_total and
//                   node_infiniband_port_data_{transmitted,received}_bytes_total: host `instance`,
//                   interface `device`;
//   snmp_exporter   if_mib's ifHCOutOctets, ifHCInOctets (Counter64), ifOutOctets, ifInOctets
//                   (Counter32): device `instance` (the target), interface `ifName`, else `ifDescr`,
//                   else `ifAlias`, else "ifIndex N" (as snmpwalk output is read);
//   gnmic           its Prometheus output's METRIC ending in
//                   interfaces_interface_state_counters_{out,in}_octets (the path with / and - as _,
//                   after gnmic's prefix and subscription name): device `source` (the target; else
//                   `instance`), interface `interface_name` (the path key).
// A series whose labels name no interface is left out with a warning. Each series is then keyed
// (instance, interface, kind, direction) and goes through the port map
// as a saved scrape's would. Two series of one key (one counter scraped by two jobs) with equal
// values are one; with different values they are an error naming both.
//
// The server's sample limit (--query.max-samples; an `execution` error "query processing would
// load too many samples into memory") counts, in Prometheus 2.42's engine, every sample a query
// holds at once: all of a raw range selector's, and for increase() one series' samples in the
// window plus the result so far. It is met by splitting the query, first by device: one query per
// value of the metric's device label over the window (/api/v1/label/NAME/values, plus the series
// without it), which changes no series' result; then, for a device still over the limit, in time:
// the window in two halves at its middle, each read the same way (recursively, down to 0.1 s and
// at most 1024 parts).
// Raw samples of the halves join exactly (a sample on the boundary is in both, and one sample at
// one time is one); increases and sample counts add up, but each half extrapolates at its own
// edges, and a half holding one sample of a series has no increase for it: close to the unsplit
// increase when each half holds many scrapes.
//
// Errors (located at the query's URL, never showing a credential): a transport failure as the
// client says it (unreachable, timeout, TLS); an HTTP error status with Prometheus' errorType and
// error text (400 bad_data, 422 execution, 503 unavailable, 401 unauthorized...), or the first
// line of a body that is not Prometheus' JSON; a reply that is not the JSON the API documents.
// A value that is not a count (NaN, negative, infinite) is a warning, and its sample or series left
// out, as the text reader drops it (counter_reader.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "diagnose/counter_rates.h"

namespace ct {

using QueryParams = std::vector<std::pair<std::string, std::string>>;

// One GET of the API's `path` ("/api/v1/query_range") with `params`: the HTTP status and body, or
// the transport's failure as errors (the seam: io/http_client.h behind it, a fake in tests).
struct ApiReply {
  long status = 0;  // NOLINT(google-runtime-int): libcurl's type
  std::string body;
};
using PrometheusGet = std::function<Result<ApiReply>(const std::string& path, const QueryParams& params)>;

struct PrometheusWindow {
  std::int64_t from_ms = 0;
  std::int64_t to_ms = 0;
  bool raw = false;
  std::string server;  // the server's URL as messages show it (no credentials)
};

struct PromPoint {
  std::int64_t time_ms = 0;
  std::string value;  // as Prometheus writes it: a decimal, "NaN", "+Inf"
};

struct PromSeries {
  std::vector<std::pair<std::string, std::string>> labels;  // as the reply orders them
  std::vector<PromPoint> points;
  [[nodiscard]] std::string_view label(std::string_view name) const;
};

// A successful reply's data: a "matrix" or "vector" (a vector's one point per series in points),
// or the label values API's array of strings (values; result_type empty).
struct PromResult {
  std::string result_type;
  std::vector<PromSeries> series;
  std::vector<std::string> values;
  std::vector<std::string> warnings;
};

// The reply of one query. `ok` false: `error_type` and `error` say why, `sample_limit` when it is
// the server's sample limit (so the caller may split the query).
struct PromReply {
  bool ok = false;
  bool sample_limit = false;
  std::string error_type;
  std::string error;
  PromResult data;
};

// Reads an API reply body (any HTTP status: Prometheus writes its errors as JSON too). Errors,
// located at `where`, only when the body is not the API's JSON (a proxy's HTML page, a truncated
// reply) or holds a value of the wrong type; an error that Prometheus reports is a PromReply.
Result<PromReply> read_prometheus_reply(std::string_view body, long status, const std::string& where);  // NOLINT(google-runtime-int)

// The counters of the window, read as the header says. `rate_options` bounds wraps in raw mode.
Result<CounterRates> fetch_prometheus_rates(const PrometheusGet& get, const PrometheusWindow& window,
                                            const RateOptions& rate_options);

// "2026-12-06T09:00:00Z", "2026-12-06T10:00:00.250+01:00" (RFC 3339) or Unix seconds ("1796296663",
// "1796296663.435") as ms since 1970; an error message otherwise (the caller locates it).
Result<std::int64_t> parse_time_argument(std::string_view text);

}  // namespace ct
