// `diagnose --prometheus` against a real Prometheus 2.42 server, on the lab's real counters.
//
// The system: examples/lab/fat-tree-4.yaml built as 28 network namespaces (one seed everywhere,
// so each pod-0 aggregation switch can use only one of its two core uplinks: polarization, as
// lab_data_plane_test.cpp works out), 8 UDP elephants from the pod-0 hosts to pod 1. The
// interfaces' kernel counters (stats64, what node_exporter's netdev collector reads from
// /proc/net/dev), read once settled (test::settled_counters), are written in node_exporter's
// format (lab_counters_text: the vertex as `instance`, the read time as the timestamp) to a file
// that `python3 -m http.server` serves on 127.0.0.1; Prometheus scrapes it every 250 ms
// (honor_labels, honor_timestamps) into its own data folder. Both servers, the test's queries and
// the CLI runs are in a network namespace of the test's own, so the servers' fixed ports are free
// whatever else the machine runs. Two scrapes are saved, before and after the elephants, and each
// is left served until Prometheus holds it.
// Expected: `diagnose --prometheus URL --from T1 --to T2` over the two scrapes' times gives the
// same verdicts (every group: imbalanced or not, and its cause) as `diagnose --counters
// before after`, with Prometheus computing increase(). Its rates: the window [T1, T2] runs from
// the first namespace's read before to the last one's after, a series' own samples t0 >= T1 and
// t1 <= T2; Prometheus extrapolates the series' growth over [t0, t1] towards the window's edges,
// but no further back than where the counter would be zero (a busy counter that started near
// zero), then divides by T2 - T1. So each group's busiest member reads between 1 - u and 1 times
// its saved rate, u = (the reads' spread before + after) / (T2 - T1), the share of the window a
// series may leave uncovered. With --prometheus-raw the server returns the very samples saved, so
// the JSON report is the same to the byte. And the saved diagnosis does name polarization (else
// the comparison says little). The server runs with --query.max-samples=50, under one metric's 80
// series (increase(): one result each) and 160 samples (raw): every first query meets
// Prometheus' own sample-limit error (422), so both are read one device at a time (the label
// values API); its own request counters say so.
// Needs root, netns, a kernel with fib_multipath_hash_seed (lab_unavailable()), `prometheus` and
// python3; otherwise skipped with the reason. The lab, both servers, their namespace and the
// temporary folder are removed by guards, also when an assertion fails.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "diagnose/prometheus_source.h"
#include "io/files.h"
#include "io/http_client.h"
#include "io/loaders.h"
#include "lab/lab_runner.h"
#include "routing/port_address.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/cli_runner.h"
#include "support/fixture_fabric.h"
#include "support/lab_fixtures.h"
#include "support/netns.h"
#include "support/test_paths.h"

namespace ct {
namespace {

using test::Background;
using test::LabGuard;
using test::TempDir;

Fabric fabric_from(const std::string& relative) { return fixtures::example_fabric(relative); }

// The servers' ports on 127.0.0.1 of the test's own namespace, where nothing else listens.
constexpr int kFilesPort = 8000;
constexpr int kPrometheusPort = 9090;

std::string seconds(std::int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ms / 1000), static_cast<long long>(ms % 1000));  // NOLINT
  return buf;
}

// An instant query's single value, or -1 when there is none yet.
double query_value(const std::string& server, const std::string& query) {
  HttpGet r;
  r.url = server + "/api/v1/query";
  r.params = {{"query", query}};
  r.timeout_s = 5;
  const HttpOutcome o = http_get(r);
  if (o.failure != HttpFailure::kNone || o.reply.status != 200) return -1;
  auto reply = read_prometheus_reply(o.reply.body, o.reply.status, server);
  if (!reply || !reply->ok || reply->data.series.empty() || reply->data.series.front().points.empty()) return -1;
  return std::stod(reply->data.series.front().points.front().value);
}

// `counters`, served at www/metrics (written whole, then renamed) and saved as `saved`; waits
// until Prometheus has stored the newest of them. Returns the first and last read time (ms).
std::pair<std::int64_t, std::int64_t> publish(const LabPlan& plan, const std::vector<LabCounter>& counters, const Fabric& f,
                                              const TempDir& dir, const std::string& saved, const std::string& server) {
  std::int64_t first = INT64_MAX, last = 0;
  for (const LabCounter& c : counters) {
    first = std::min(first, c.time_ms);
    last = std::max(last, c.time_ms);
  }
  const std::string text = lab_counters_text(plan, counters, f.topology());
  dir.write(saved, text);
  dir.write("www/metrics.tmp", text);
  std::filesystem::rename(dir.path() + "/www/metrics.tmp", dir.path() + "/www/metrics");
  // The newest sample's instance: asking for its series only stays under the sample limit.
  std::string newest;
  for (std::string_view rest = text; !rest.empty();) {
    const std::string_view line = rest.substr(0, rest.find('\n'));
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
    const std::size_t at = line.find("instance=\""), blank = line.rfind(' ');
    if (at != std::string_view::npos && blank != std::string_view::npos && line.substr(blank + 1) == std::to_string(last)) {
      newest = std::string(line.substr(at + 10, line.find('"', at + 10) - at - 10));
    }
  }
  EXPECT_FALSE(newest.empty());
  const std::string query = "max(timestamp(node_network_transmit_bytes_total{instance=\"" + newest + "\"}))";
  const double waited = test::wait_until(
      [&] { return query_value(server, query) * 1000.0 >= static_cast<double>(last) - 0.5; }, std::chrono::milliseconds(60000));
  EXPECT_GE(waited, 0) << "Prometheus did not store the scrape " << saved;
  return {first, last};
}

// Runs the CLI, returns its stdout; the exit code must be 0.
std::string run_cli(const std::string& args, const std::string& name) {
  const testing_support::CliRun r = testing_support::run_clustertwin(args);
  EXPECT_EQ(r.rc, 0) << name << ": " << r.err;
  return r.out;
}

// Per group: "switch dir imbalanced cause".
std::vector<std::string> verdicts(const std::string& json_text) {
  std::vector<std::string> out;
  const auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.contains("groups")) return out;
  for (const auto& g : j["groups"]) {
    out.push_back(g["switch"].get<std::string>() + " " + g["direction"].get<std::string>() + " " +
                  (g["imbalanced"].get<bool>() ? "imbalanced " : "balanced ") + g.value("cause", std::string()));
  }
  return out;
}

std::vector<LabFlow> elephants(const Topology& t) {
  std::vector<LabFlow> out;
  for (int i = 0; i < 8; ++i) {
    LabFlow f = test::lab_elephant(t, i);
    f.key.src_port = static_cast<std::uint16_t>(50000 + 13 * i);
    out.push_back(f);
  }
  return out;
}

TEST(LabPrometheus, LiveServerGivesTheVerdictsOfTheSavedScrapes) {
  if (const std::string why = lab_unavailable(); !why.empty()) GTEST_SKIP() << why;
  if (!test::have_binary("prometheus")) GTEST_SKIP() << "prometheus (Debian package prometheus) not found";
  if (!test::have_binary("python3")) GTEST_SKIP() << "python3 not found";
  const std::string spec = "examples/lab/fat-tree-4.yaml";
  const Fabric f = fabric_from(spec);
  const std::string prefix = "ctlab-" + std::to_string(getpid()) + "-p-";
  LabGuard lab(prefix);
  auto plan = plan_lab(f, prefix);
  ASSERT_TRUE(plan.ok()) << format_diagnostics(plan.errors());
  ASSERT_TRUE(lab_up(plan.value()).ok());
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::filesystem::create_directories(dir.path() + "/www");
  dir.write("www/metrics", "");
  test::Netns servers(test::unique_name("servers", "ctprom"));
  ASSERT_TRUE(servers.created());
  const test::InsideNetns inside(servers);
  ASSERT_TRUE(inside.entered());
  dir.write("prometheus.yml", "global:\n  scrape_interval: 250ms\n  scrape_timeout: 200ms\nscrape_configs:\n"
                              "  - job_name: lab\n    honor_labels: true\n    honor_timestamps: true\n"
                              "    static_configs:\n      - targets: ['127.0.0.1:" + std::to_string(kFilesPort) + "']\n");
  Background files({"python3", "-m", "http.server", std::to_string(kFilesPort), "--bind", "127.0.0.1", "--directory", dir.path() + "/www"},
                   dir.path() + "/files.log");
  Background prometheus({"prometheus", "--config.file=" + dir.path() + "/prometheus.yml", "--storage.tsdb.path=" + dir.path() + "/data",
                         "--query.max-samples=50", "--web.listen-address=127.0.0.1:" + std::to_string(kPrometheusPort)},
                        dir.path() + "/prometheus.log");
  const std::string server = "http://127.0.0.1:" + std::to_string(kPrometheusPort);
  const double started = test::wait_until([&] { return query_value(server, "vector(1)") == 1; }, std::chrono::milliseconds(60000));
  const auto log = read_text_file(dir.path() + "/prometheus.log");
  ASSERT_GE(started, 0) << "Prometheus did not start: " << (log.ok() ? log.value() : std::string());

  const std::vector<LabFlow> flows = elephants(f.topology());
  const std::vector<LabCounter> idle = test::settled_counters(plan.value()).later;
  ASSERT_TRUE(lab_send(plan.value(), flows, 3, 64).ok());  // warm-up: neighbours resolved, every packet arrived
  // The window: from the last read known idle to the first read with every count.
  const auto before = publish(plan.value(), test::settled_counters(plan.value(), flows, idle, 3 * test::lab_wire_bytes(64)).later, f,
                              dir, "before.prom", server);
  auto sent = lab_send(plan.value(), flows, 2000, 1000);
  ASSERT_TRUE(sent.ok()) << format_diagnostics(sent.errors());
  const auto after = publish(plan.value(), test::settled_counters(plan.value()).earlier, f, dir, "after.prom", server);
  dir.write("map.csv", lab_port_map(plan.value(), f.topology()));
  dir.write("flows.csv", lab_flows_csv(sent.value()));

  const std::string src = testing_support::source_dir() + "/" + spec;
  const std::string rest = " --map " + dir.path() + "/map.csv --flows " + dir.path() + "/flows.csv --json";
  const std::string saved =
      run_cli("diagnose " + src + " --counters " + dir.path() + "/before.prom " + dir.path() + "/after.prom" + rest, "saved");
  const std::string window = " --prometheus " + server + " --from " + seconds(before.first) + " --to " + seconds(after.second);
  const std::string live = run_cli("diagnose " + src + window + rest, "live");
  const std::string raw = run_cli("diagnose " + src + window + " --prometheus-raw" + rest, "raw");

  HttpGet self;
  self.url = server + "/metrics";
  const std::string metrics = http_get(self).reply.body;
  EXPECT_NE(metrics.find("prometheus_http_requests_total{code=\"422\",handler=\"/api/v1/query_range\"}"), std::string::npos);
  EXPECT_NE(metrics.find("prometheus_http_requests_total{code=\"422\",handler=\"/api/v1/query\"}"), std::string::npos);
  EXPECT_NE(metrics.find("prometheus_http_requests_total{code=\"200\",handler=\"/api/v1/label/:name/values\"}"), std::string::npos);

  const std::vector<std::string> expected = verdicts(saved);
  ASSERT_FALSE(expected.empty()) << saved;
  EXPECT_NE(saved.find("\"cause\": \"polarization\""), std::string::npos) << saved;
  EXPECT_EQ(verdicts(live), expected);
  EXPECT_EQ(raw, saved);
  const auto js = nlohmann::json::parse(saved), jl = nlohmann::json::parse(live);
  const double uncovered = static_cast<double>(before.second - before.first + after.second - after.first) /
                           static_cast<double>(after.second - before.first);
  for (std::size_t g = 0; g < js["groups"].size() && g < jl["groups"].size(); ++g) {
    const double a = js["groups"][g]["max_bps"].get<double>(), b = jl["groups"][g]["max_bps"].get<double>();
    EXPECT_LE(b, a * 1.001) << js["groups"][g]["switch"];
    EXPECT_GE(b, a * (1 - uncovered) * 0.999) << js["groups"][g]["switch"] << ", uncovered " << uncovered;
  }
}

}  // namespace
}  // namespace ct
