// The live Prometheus source (diagnose/prometheus_source.h) against a stand-in for the HTTP API:
// a PrometheusGet that answers from a table, so every query the source asks is seen.
//
// Worked by hand: a window of 10 s ([1000 s, 1010 s]); node_exporter's host "h0" with eth0 up by
// 12,500,000 bytes (10 Mb/s), the SNMP exporter's "leaf0" with Ethernet4 (ifName) up by 25,000,000
// (20 Mb/s) and an interface with only ifIndex 7 up by 0, and gnmic's target "spine0" (the
// `source` label; its own `instance` is gnmic's address) with Ethernet8 up by 1,250,000 (1 Mb/s).
// Expected rates: bytes / 10 s, keyed (instance, interface) by each exporter's labels.
#include <gtest/gtest.h>

#include <map>

#include "diagnose/prometheus_source.h"

namespace ct {
namespace {

std::string matrix(const std::string& series) {
  return R"({"status":"success","data":{"resultType":"matrix","result":[)" + series + "]}}";
}

std::string point(const std::string& labels, const std::string& value) {
  return R"({"metric":{)" + labels + R"(},"values":[[1010,")" + value + R"("]]})";
}

struct Api {
  std::vector<std::string> asked;
  // query text (or path for other endpoints) -> (status, body)
  std::map<std::string, std::pair<long, std::string>> answers;  // NOLINT(google-runtime-int)
  PrometheusGet get() {
    return [this](const std::string& path, const QueryParams& params) -> Result<ApiReply> {
      const std::string key = path == "/api/v1/query_range" || path == "/api/v1/query" ? params.front().second : path;
      asked.push_back(key);
      const auto it = answers.find(key);
      if (it == answers.end()) return ApiReply{200, matrix("")};
      return ApiReply{it->second.first, it->second.second};
    };
  }
};

PrometheusWindow window(bool raw = false) { return PrometheusWindow{1000000, 1010000, raw, "http://prom:9090"}; }

TEST(PrometheusSource, EachExportersLabelsNameTheSeries) {
  Api api;
  api.answers["increase({__name__=\"node_network_transmit_bytes_total\"}[10000ms])"] = {
      200, matrix(point(R"("instance":"h0","device":"eth0","job":"node")", "12500000"))};
  api.answers["increase({__name__=\"ifHCOutOctets\"}[10000ms])"] = {
      200, matrix(point(R"("instance":"leaf0","ifName":"Ethernet4","ifAlias":"to spine0","ifIndex":"4")", "25000000") + "," +
                  point(R"("instance":"leaf0","ifIndex":"7")", "0"))};
  api.answers["increase({__name__=~\"(.+_)?interfaces_interface_state_counters_out_octets\"}[10000ms])"] = {
      200, matrix(point(R"("__name__":"gnmic_sub_interfaces_interface_state_counters_out_octets","instance":"gnmic:9804","source":"spine0","interface_name":"Ethernet8")",
                        "1250000"))};
  auto rates = fetch_prometheus_rates(api.get(), window(), RateOptions{});
  ASSERT_TRUE(rates.ok()) << format_diagnostics(rates.errors());
  std::map<std::string, double> bps;
  for (const SeriesRate& r : rates->series) bps[r.instance + " " + r.device + (r.transmit ? " tx" : " rx")] = r.bytes_per_second;
  EXPECT_EQ(bps, (std::map<std::string, double>{{"h0 eth0 tx", 1250000},
                                                {"leaf0 Ethernet4 tx", 2500000},
                                                {"leaf0 ifIndex 7 tx", 0},
                                                {"spine0 Ethernet8 tx", 125000}}));
  // Ten metrics (4 node_exporter, 4 IF-MIB, 2 gnmic), each asked increase() and count_over_time().
  EXPECT_EQ(api.asked.size(), 20u);
}

TEST(PrometheusSource, ErrorRepliesCarryPrometheusText) {
  Api api;
  api.answers["increase({__name__=\"node_network_transmit_bytes_total\"}[10000ms])"] = {
      400, R"({"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": parse error"})"};
  auto rates = fetch_prometheus_rates(api.get(), window(), RateOptions{});
  ASSERT_FALSE(rates.ok());
  EXPECT_EQ(format_diagnostics(rates.errors()),
            "http://prom:9090/api/v1/query_range?query=increase({__name__=\"node_network_transmit_bytes_total\"}[10000ms]): "
            "error: prometheus: HTTP 400 bad_data: invalid parameter \"query\": parse error\n");
}

TEST(PrometheusSource, TheSampleLimitSplitsByDeviceThenInTime) {
  // Raw samples of one metric over the limit; its device h0 still over it for the whole window,
  // not for either half: 1 + 1 (label values) + 1 (h0, whole) + 2 (halves) + 1 (series without
  // the label) queries for this metric.
  Api api;
  const std::string limit = R"({"status":"error","errorType":"execution","error":"query processing would load too many samples into memory in query execution"})";
  api.answers["{__name__=\"node_network_transmit_bytes_total\"}[10000ms]"] = {422, limit};
  api.answers["/api/v1/label/instance/values"] = {200, R"({"status":"success","data":["h0"]})"};
  api.answers["{__name__=\"node_network_transmit_bytes_total\",instance=\"h0\"}[10000ms]"] = {422, limit};
  api.answers["{__name__=\"node_network_transmit_bytes_total\",instance=\"h0\"}[5000ms]"] = {
      200, R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"instance":"h0","device":"eth0"},"values":[[1000,"100"],[1005,"600"]]}]}})"};
  auto rates = fetch_prometheus_rates(api.get(), window(true), RateOptions{});
  ASSERT_TRUE(rates.ok()) << format_diagnostics(rates.errors());
  ASSERT_EQ(rates->series.size(), 1u);
  // Both halves are answered with the same two samples here: one sample at one time is one.
  EXPECT_EQ(rates->series[0].bytes, 500);
  EXPECT_EQ(rates->series[0].seconds, 5);
  std::size_t for_metric = 0;
  for (const std::string& q : api.asked) for_metric += q.find("node_network_transmit") != std::string::npos ? 1 : 0;
  EXPECT_EQ(for_metric, 5u);
  EXPECT_NE(std::find(api.asked.begin(), api.asked.end(), "/api/v1/label/instance/values"), api.asked.end());
}

TEST(PrometheusSource, RepliesThatAreNotTheApisJson) {
  auto html = read_prometheus_reply("<html>login</html>", 200, "http://p/api/v1/query");
  ASSERT_FALSE(html.ok());
  EXPECT_NE(html.errors().front().message.find("not the API's JSON ('<html>login</html>')"), std::string::npos);
  auto text503 = read_prometheus_reply("Service Unavailable", 503, "http://p/api/v1/query");
  ASSERT_FALSE(text503.ok());
  EXPECT_EQ(text503.errors().front().message, "HTTP 503: 'Service Unavailable'");
  auto bad_time = read_prometheus_reply(matrix(R"({"metric":{},"values":[["x","1"]]})"), 200, "w");
  ASSERT_FALSE(bad_time.ok());
  EXPECT_EQ(bad_time.errors().front().field, "data.result[0].values");
  auto limit = read_prometheus_reply(
      R"({"status":"error","errorType":"execution","error":"query processing would load too many samples into memory in query execution"})", 422, "w");
  ASSERT_TRUE(limit.ok());
  EXPECT_TRUE(limit->sample_limit);
}

TEST(PrometheusSource, TimeArguments) {
  // 2026-12-06T09:00:00Z: 56 years of 365 days and 14 leap days (1972 .. 2024) to 2026-01-01,
  // 20,454 days, and 339 more to December 6: 20,793 x 86,400 s + 9 h = 1,796,547,600 s.
  EXPECT_EQ(parse_time_argument("2026-12-06T09:00:00Z").value(), 1796547600000);
  EXPECT_EQ(parse_time_argument("2026-12-06T10:00:00.25+01:00").value(), 1796547600250);
  EXPECT_EQ(parse_time_argument("2026-12-06t09:00:00z").value(), 1796547600000);
  EXPECT_EQ(parse_time_argument("1796547600").value(), 1796547600000);
  EXPECT_EQ(parse_time_argument("1796547600.5").value(), 1796547600500);
  EXPECT_EQ(parse_time_argument("1970-01-01T00:00:00Z").value(), 0);
  EXPECT_EQ(parse_time_argument("2024-02-29T00:00:00Z").value(), 1709164800000);
  for (const char* bad : {"", "yesterday", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-06T24:00:00Z",
                          "2026-12-06T09:00:00", "2026-12-06 09:00", "-5", "1.", "1e9", "2026-12-06T09:00:00+1:00"}) {
    EXPECT_FALSE(parse_time_argument(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace ct
