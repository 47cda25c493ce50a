#include "diagnose/prometheus_source.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include "core/clock_text.h"
#include "diagnose/counter_reader.h"

namespace ct {
namespace {

using Json = nlohmann::json;

constexpr std::int64_t kSmallestSplitMs = 100;
constexpr int kMostSplits = 10;  // a window is read in at most 2^10 parts
constexpr const char* kSampleLimitText = "query processing would load too many samples";

// How one metric's labels name its device and interface (the header's table).
enum class Labels : std::uint8_t { kNode, kSnmp, kGnmic };

struct LiveMetric {
  std::string matchers;    // __name__="..." or __name__=~"..."
  std::string host_label;  // the label that names the device
  Labels labels;
  CounterMetric metric;
};

std::vector<LiveMetric> live_metrics() {
  std::vector<LiveMetric> out;
  for (const char* name : {"node_network_transmit_bytes_total", "node_network_receive_bytes_total",
                           "node_infiniband_port_data_transmitted_bytes_total",
                           "node_infiniband_port_data_received_bytes_total"}) {
    out.push_back(LiveMetric{"__name__=\"" + std::string(name) + "\"", "instance", Labels::kNode, counter_metric(name)});
  }
  for (const char* name : {"ifHCOutOctets", "ifHCInOctets", "ifOutOctets", "ifInOctets"}) {
    out.push_back(LiveMetric{"__name__=\"" + std::string(name) + "\"", "instance", Labels::kSnmp, counter_metric(name)});
  }
  for (const bool out_octets : {true, false}) {
    const std::string leaf = out_octets ? "out_octets" : "in_octets";
    out.push_back(LiveMetric{"__name__=~\"(.+_)?interfaces_interface_state_counters_" + leaf + "\"", "source", Labels::kGnmic,
                             CounterMetric{true, out_octets, CounterKind::kSwitch, CounterWidth::k64, 1}});
  }
  return out;
}

// A PromQL string literal's text: backslash and double quote escaped.
std::string promql_string(std::string_view v) {
  std::string out = "\"";
  for (const char c : v) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out + "\"";
}

// The metric's series selector, restricted to one host when `host` is set ("" selects the series
// without the host label).
std::string selector(const LiveMetric& m, const std::optional<std::string>& host) {
  return "{" + m.matchers + (host ? "," + m.host_label + "=" + promql_string(*host) : "") + "}";
}

Diagnostic error_at(const std::string& where, std::string field, std::string message) {
  return Diagnostic{SourceLocation{where, 0, 0}, std::move(field), std::move(message)};
}

// Prometheus writes times as seconds with a fraction (a JSON number) and values as strings.
std::optional<std::int64_t> json_time_ms(const Json& t) {
  if (!t.is_number()) return std::nullopt;
  const double s = t.get<double>();
  if (!std::isfinite(s) || s < 0 || s * 1000.0 > static_cast<double>(kMaxTimeMs)) return std::nullopt;
  return std::llround(s * 1000.0);
}

std::optional<PromPoint> json_point(const Json& p) {
  if (!p.is_array() || p.size() != 2 || !p[1].is_string()) return std::nullopt;
  const auto t = json_time_ms(p[0]);
  if (!t) return std::nullopt;
  return PromPoint{*t, p[1].get<std::string>()};
}

// One element of data.result: {"metric": {...}, "values": [[t, "v"], ...]} or "value": [t, "v"].
Result<PromSeries> json_series(const Json& e, const std::string& where, std::size_t index) {
  const std::string field = "data.result[" + std::to_string(index) + "]";
  if (!e.is_object() || !e.contains("metric") || !e["metric"].is_object()) {
    return error_at(where, field, "expected an object with \"metric\" labels");
  }
  PromSeries s;
  for (const auto& [k, v] : e["metric"].items()) {
    if (!v.is_string()) return error_at(where, field + ".metric." + k, "a label value is not a string");
    s.labels.emplace_back(k, v.get<std::string>());
  }
  if (e.contains("values") && e["values"].is_array()) {
    for (const Json& p : e["values"]) {
      auto point = json_point(p);
      if (!point) return error_at(where, field + ".values", "expected [seconds, \"value\"] pairs with seconds in 0 .. year 9999");
      s.points.push_back(std::move(*point));
    }
  } else if (e.contains("value")) {
    auto point = json_point(e["value"]);
    if (!point) return error_at(where, field + ".value", "expected [seconds, \"value\"] with seconds in 0 .. year 9999");
    s.points.push_back(std::move(*point));
  } else {
    return error_at(where, field, "neither \"values\" nor \"value\"");
  }
  return s;
}

Result<PromResult> json_data(const Json& doc, const std::string& where) {
  if (!doc.contains("data") || !doc["data"].is_object()) return error_at(where, "data", "a successful reply without \"data\"");
  const Json& data = doc["data"];
  PromResult out;
  if (!data.contains("resultType") || !data["resultType"].is_string() || !data.contains("result") ||
      !data["result"].is_array()) {
    return error_at(where, "data", "expected \"resultType\" and a \"result\" array");
  }
  out.result_type = data["resultType"].get<std::string>();
  if (out.result_type != "matrix" && out.result_type != "vector") {
    return error_at(where, "data.resultType", "'" + out.result_type + "': expected a matrix or a vector of counters");
  }
  Diagnostics errors;
  for (std::size_t i = 0; i < data["result"].size(); ++i) {
    auto s = json_series(data["result"][i], where, i);
    if (!s) {
      errors.insert(errors.end(), s.errors().begin(), s.errors().end());
    } else {
      out.series.push_back(std::move(s).value());
    }
  }
  if (doc.contains("warnings") && doc["warnings"].is_array()) {
    for (const Json& w : doc["warnings"]) {
      if (w.is_string()) out.warnings.push_back(w.get<std::string>());
    }
  }
  if (!errors.empty()) return errors;
  return out;
}

// The first line of a body that is not the API's JSON, cut short, for the message.
std::string body_excerpt(std::string_view body) {
  std::string_view line = body.substr(0, body.find('\n'));
  if (line.size() > 200) line = line.substr(0, 200);
  return line.empty() ? "an empty body" : "'" + std::string(line) + "'";
}

std::string seconds_text(std::int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ms / 1000), static_cast<long long>(ms % 1000));  // NOLINT
  return buf;
}

// One API GET, its reply read; a Prometheus error other than the sample limit is an error here.
Result<PromReply> ask(const PrometheusGet& get, const std::string& server, const std::string& path, const QueryParams& params) {
  const std::string where = server + path + "?query=" + params.front().second;
  auto reply = get(path, params);
  if (!reply) return reply.errors();
  auto read = read_prometheus_reply(reply->body, reply->status, where);
  if (!read) return read.errors();
  if (!read->ok && !read->sample_limit) {
    return error_at(where, "prometheus",
                    "HTTP " + std::to_string(reply->status) + (read->error_type.empty() ? "" : " " + read->error_type) + ": " +
                        read->error);
  }
  return read;
}

// The window's series of one query, appended to `out`. `query` builds the query text for a window
// of `ms` milliseconds: raw with /api/v1/query at the window's end, else /api/v1/query_range at
// start = end = the window's end. On the sample limit, with `split` the window is read as two
// halves (recursively); without, false is returned and nothing appended.
Result<bool> windowed(const PrometheusGet& get, const PrometheusWindow& w, std::int64_t from_ms, std::int64_t to_ms,
                      const std::function<std::string(std::int64_t)>& query, bool split, std::vector<PromSeries>& out,
                      Diagnostics& warnings, int depth = 0) {
  const std::string q = query(to_ms - from_ms);
  QueryParams params = {{"query", q}};
  std::string path;
  if (w.raw) {
    path = "/api/v1/query";
    params.emplace_back("time", seconds_text(to_ms));
  } else {
    path = "/api/v1/query_range";
    params.emplace_back("start", seconds_text(to_ms));
    params.emplace_back("end", seconds_text(to_ms));
    params.emplace_back("step", "1");
  }
  auto reply = ask(get, w.server, path, params);
  if (!reply) return reply.errors();
  const std::string where = w.server + path + "?query=" + q;
  if (reply->sample_limit) {
    if (!split) return false;
    if (to_ms - from_ms < 2 * kSmallestSplitMs || depth >= kMostSplits) {
      return error_at(where, "prometheus",
                      "the server's sample limit is reached even by a window of " + seconds_text(to_ms - from_ms) +
                          " s (one device's series, the window split " + std::to_string(depth) +
                          " times): raise --query.max-samples on the server, or narrow the window");
    }
    const std::int64_t mid = from_ms + (to_ms - from_ms) / 2;
    auto first = windowed(get, w, from_ms, mid, query, true, out, warnings, depth + 1);
    if (!first) return first;
    return windowed(get, w, mid, to_ms, query, true, out, warnings, depth + 1);
  }
  for (const std::string& text : reply->data.warnings) {
    warnings.push_back(Diagnostic{SourceLocation{where, 0, 0}, "prometheus", "the server warns: " + text, Severity::kWarning});
  }
  for (PromSeries& s : reply->data.series) out.push_back(std::move(s));
  return true;
}

// The values of the metric's host label over the window (the label values API), and "" for the
// series without it.
Result<std::vector<std::string>> hosts_of(const PrometheusGet& get, const PrometheusWindow& w, const LiveMetric& m) {
  const std::string path = "/api/v1/label/" + m.host_label + "/values";
  const QueryParams params = {{"match[]", selector(m, std::nullopt)},
                              {"start", seconds_text(w.from_ms)},
                              {"end", seconds_text(w.to_ms)}};
  auto reply = ask(get, w.server, path, params);
  if (!reply) return reply.errors();
  if (!reply->ok) return error_at(w.server + path, "prometheus", "HTTP 422 " + reply->error_type + ": " + reply->error);
  std::vector<std::string> hosts = reply->data.values;
  hosts.emplace_back();
  return hosts;
}

// A metric's series over the window under `fn` (increase, count_over_time; "" for the raw
// range selector): one query; on the sample limit one query per device, each split in time if
// it must.
Result<Unit> per_host(const PrometheusGet& get, const PrometheusWindow& w, const LiveMetric& m, const std::string& fn,
                      std::vector<PromSeries>& out, Diagnostics& warnings) {
  auto query = [&](std::optional<std::string> host) {
    return [&fn, &m, host](std::int64_t ms) {
      const std::string range = selector(m, host) + "[" + std::to_string(ms) + "ms]";
      return fn.empty() ? range : fn + "(" + range + ")";
    };
  };
  auto whole = windowed(get, w, w.from_ms, w.to_ms, query(std::nullopt), false, out, warnings);
  if (!whole) return whole.errors();
  if (whole.value()) return Unit{};
  auto hosts = hosts_of(get, w, m);
  if (!hosts) return hosts.errors();
  for (const std::string& host : hosts.value()) {
    auto one = windowed(get, w, w.from_ms, w.to_ms, query(host), true, out, warnings);
    if (!one) return one.errors();
  }
  return Unit{};
}

// (instance, interface) of a series by its metric's label convention; each empty when absent.
std::pair<std::string, std::string> series_name(const PromSeries& s, Labels labels) {
  switch (labels) {
    case Labels::kNode:
      return {std::string(s.label("instance")), std::string(s.label("device"))};
    case Labels::kSnmp: {
      for (const char* l : {"ifName", "ifDescr", "ifAlias"}) {
        if (!s.label(l).empty()) return {std::string(s.label("instance")), std::string(s.label(l))};
      }
      const std::string_view index = s.label("ifIndex");
      return {std::string(s.label("instance")), index.empty() ? std::string() : "ifIndex " + std::string(index)};
    }
    case Labels::kGnmic: {
      const std::string_view source = s.label("source");
      return {std::string(source.empty() ? s.label("instance") : source), std::string(s.label("interface_name"))};
    }
  }
  return {};
}

std::string labels_text(const PromSeries& s) {
  std::string out = "{";
  for (const auto& [k, v] : s.labels) out += (out.size() > 1 ? "," : "") + k + "=\"" + v + "\"";
  return out + "}";
}

Diagnostic unnamed(const std::string& where, const PromSeries& s) {
  return Diagnostic{SourceLocation{where, 0, 0}, "series", labels_text(s) + " names no interface; series left out",
                    Severity::kWarning};
}

std::optional<double> value_of(const PromPoint& p) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(p.value.data(), p.value.data() + p.value.size(), v);
  if (ec != std::errc() || ptr != p.value.data() + p.value.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

using Key = std::tuple<std::string, std::string, CounterKind, bool>;

struct Summed {
  double counts = 0;
  double samples = 0;
  std::string first;  // the first series' labels, for a conflict's message
  bool has_increase = false;
};

// One metric read with increase() and count_over_time(), summed over the split windows, into `by_key`.
Result<Unit> increase_of(const PrometheusGet& get, const PrometheusWindow& w, const LiveMetric& m,
                         std::map<Key, Summed>& by_key, Diagnostics& warnings) {
  for (const bool counting : {false, true}) {
    std::vector<PromSeries> series;
    const std::string fn = counting ? "count_over_time" : "increase";
    auto got = per_host(get, w, m, fn, series, warnings);
    if (!got) return got;
    std::map<std::string, std::pair<Key, double>> per_labels;  // one labelled series over the halves
    for (const PromSeries& s : series) {
      if (s.points.empty()) continue;
      const auto v = value_of(s.points.back());
      const std::string where = w.server + "/api/v1/query_range?query=" + fn + "(" + selector(m, std::nullopt) + ")";
      if (!v) {
        warnings.push_back(Diagnostic{SourceLocation{where, 0, 0}, "value",
                                      labels_text(s) + ": '" + s.points.back().value + "' is not a count; series left out",
                                      Severity::kWarning});
        continue;
      }
      auto [instance, device] = series_name(s, m.labels);
      if (device.empty()) {
        warnings.push_back(unnamed(where, s));
        continue;
      }
      auto& slot = per_labels[labels_text(s)];
      slot.first = Key{std::move(instance), std::move(device), m.metric.kind, m.metric.transmit};
      slot.second += *v;
    }
    for (const auto& [labels, kv] : per_labels) {
      Summed& sum = by_key[kv.first];
      if (counting) {
        sum.samples = std::max(sum.samples, kv.second);
        continue;
      }
      if (sum.has_increase && std::fabs(sum.counts - kv.second * m.metric.unit) > 0.5) {
        return error_at(w.server, "series",
                        labels + " and " + sum.first + " are one counter (instance, interface, direction) with different increases");
      }
      sum.counts = kv.second * m.metric.unit;
      sum.first = labels;
      sum.has_increase = true;
    }
  }
  return Unit{};
}

Result<CounterRates> increase_rates(const PrometheusGet& get, const PrometheusWindow& w) {
  std::map<Key, Summed> by_key;
  CounterRates out;
  for (const LiveMetric& m : live_metrics()) {
    auto got = increase_of(get, w, m, by_key, out.warnings);
    if (!got) return got.errors();
  }
  const double seconds = static_cast<double>(w.to_ms - w.from_ms) / 1000.0;
  for (const auto& [key, sum] : by_key) {
    if (!sum.has_increase) continue;
    SeriesRate r;
    std::tie(r.instance, r.device, r.kind, r.transmit) = key;
    r.bytes = sum.counts;
    r.seconds = seconds;
    r.bytes_per_second = sum.counts / seconds;
    r.samples = static_cast<std::uint32_t>(sum.samples);
    r.where = SourceLocation{w.server + "/api/v1/query_range", 0, 0};
    out.scrapes = std::max(out.scrapes, static_cast<std::size_t>(sum.samples));
    out.series.push_back(std::move(r));
  }
  // The order of counter_rates.h: (instance, device, kind, transmit first).
  std::sort(out.series.begin(), out.series.end(), [](const SeriesRate& a, const SeriesRate& b) {
    return std::tie(a.instance, a.device, a.kind, b.transmit) < std::tie(b.instance, b.device, b.kind, a.transmit);
  });
  return out;
}

// Raw samples of every metric as one Scrape per metric, then compute_rates.
Result<CounterRates> raw_rates(const PrometheusGet& get, const PrometheusWindow& w, const RateOptions& options) {
  std::vector<Scrape> scrapes;
  Diagnostics warnings;
  for (const LiveMetric& m : live_metrics()) {
    std::vector<PromSeries> series;
    const std::string sel = selector(m, std::nullopt);
    auto got = per_host(get, w, m, "", series, warnings);
    if (!got) return got.errors();
    Scrape scrape;
    scrape.file = w.server + "/api/v1/query?query=" + sel;
    for (const PromSeries& s : series) {
      auto [instance, device] = series_name(s, m.labels);
      if (device.empty()) {
        scrape.warnings.push_back(unnamed(scrape.file, s));
        continue;
      }
      for (const PromPoint& p : s.points) {
        const auto v = value_of(p);
        if (!v || *v >= 18446744073709551616.0) {
          scrape.warnings.push_back(Diagnostic{SourceLocation{scrape.file, 0, 0}, "value",
                                               labels_text(s) + " at " + seconds_text(p.time_ms) + ": '" + p.value +
                                                   "' is not a counter value; sample dropped",
                                               Severity::kWarning});
          continue;
        }
        CounterSample c{instance, device, m.metric.transmit, m.metric.kind, m.metric.width,
                        static_cast<std::uint64_t>(*v), m.metric.unit, p.time_ms, SourceLocation{scrape.file, 0, 0}};
        scrape.samples.push_back(std::move(c));
      }
    }
    if (!scrape.samples.empty()) scrapes.push_back(std::move(scrape));
  }
  auto rates = compute_rates(scrapes, options);
  if (!rates) return rates.errors();
  std::size_t most = 0;
  for (const SeriesRate& r : rates->series) most = std::max<std::size_t>(most, r.samples);
  rates->scrapes = most;
  rates->warnings.insert(rates->warnings.begin(), warnings.begin(), warnings.end());
  return rates;
}

}  // namespace

std::string_view PromSeries::label(std::string_view name) const {
  for (const auto& [k, v] : labels) {
    if (k == name) return v;
  }
  return {};
}

Result<PromReply> read_prometheus_reply(std::string_view body, long status, const std::string& where) {  // NOLINT
  Json doc = Json::parse(body, nullptr, false);
  const std::string http = "HTTP " + std::to_string(status);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("status") || !doc["status"].is_string()) {
    if (status < 200 || status >= 300) return error_at(where, "prometheus", http + ": " + body_excerpt(body));
    return error_at(where, "prometheus", "the reply is not the API's JSON (" + body_excerpt(body) + ")");
  }
  PromReply out;
  if (doc["status"] == "success" && status >= 200 && status < 300 && doc.contains("data") && doc["data"].is_array()) {
    out.ok = true;
    for (const Json& v : doc["data"]) {
      if (!v.is_string()) return error_at(where, "data", "expected an array of label values");
      out.data.values.push_back(v.get<std::string>());
    }
    return out;
  }
  if (doc["status"] == "success" && status >= 200 && status < 300) {
    auto data = json_data(doc, where);
    if (!data) return data.errors();
    out.ok = true;
    out.data = std::move(data).value();
    return out;
  }
  if (doc.contains("errorType") && doc["errorType"].is_string()) out.error_type = doc["errorType"].get<std::string>();
  if (doc.contains("error") && doc["error"].is_string()) out.error = doc["error"].get<std::string>();
  if (out.error.empty()) out.error = "status \"" + doc["status"].dump() + "\" without an error text";
  out.sample_limit = out.error.find(kSampleLimitText) != std::string::npos;
  return out;
}

Result<CounterRates> fetch_prometheus_rates(const PrometheusGet& get, const PrometheusWindow& window,
                                            const RateOptions& rate_options) {
  if (window.to_ms <= window.from_ms) {
    return error_at("command line", "--from", "the window is empty: --from must be before --to");
  }
  return window.raw ? raw_rates(get, window, rate_options) : increase_rates(get, window);
}

Result<std::int64_t> parse_time_argument(std::string_view text) {
  auto ms = text.find_first_not_of("0123456789.") == std::string_view::npos ? unix_seconds_ms(text) : rfc3339_ms(text);
  if (!ms || *ms < 0 || *ms > kMaxTimeMs) {
    return error_at("command line", "time",
                    "'" + std::string(text) + "' is not a time: give RFC 3339 (2026-12-06T09:00:00Z, "
                    "2026-12-06T10:00:00.5+01:00) or Unix seconds (1796296663.435), up to the year 9999");
  }
  return *ms;
}

}  // namespace ct
