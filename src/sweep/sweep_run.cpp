#include "sweep/sweep_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/reliability_study.h"
#include "core/threads.h"
#include "fabric/fabric.h"
#include "io/files.h"
#include "plan/planner.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "sweep/sweep_studies.h"

namespace ct {
namespace {

}  // namespace

std::vector<std::vector<std::size_t>> sweep_axis_groups(const SweepFile& sweep) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<bool> zipped(sweep.axes.size(), false);
  for (const auto& z : sweep.zips) {
    for (std::size_t a : z) zipped[a] = true;
  }
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
    if (zipped[a]) {
      for (const auto& z : sweep.zips) {
        if (z.front() == a) groups.push_back(z);
      }
    } else {
      groups.push_back({a});
    }
  }
  return groups;
}

namespace {

bool excluded(const SweepFile& sweep, const SweepPoint& p) {
  return std::any_of(sweep.exclude.begin(), sweep.exclude.end(), [&](const SweepExclusion& x) {
    return std::all_of(x.match.begin(), x.match.end(), [&](const auto& m) {
      return sweep.axes[m.first].values[p.value[m.first]].yaml == m.second;
    });
  });
}

double total_switches(const Plan& plan) {
  long long n = 0;
  for (const TierFigures& t : plan.total_tiers) n += t.switches;
  return static_cast<double>(n);
}

std::optional<double> known(const Bill& bill) {
  return bill.complete() ? std::optional<double>(bill.known_total) : std::nullopt;
}

// "spec.yaml:12:3: backend.tiers: ..." in one line, the first problem only: a reason, not a listing.
std::string reason_of(const Diagnostics& errors) {
  if (errors.empty()) return "no reason given";
  const Diagnostic& d = errors.front();
  return d.field.empty() ? d.message : d.field + ": " + d.message;
}

std::uint64_t fnv1a(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

// ---- the journal: one JSON file per finished point ----

std::string journal_key(const SweepFile& sweep) {
  std::uint64_t h = fnv1a(14695981039346656037ULL, "clustertwin sweep journal 1\n");
  h = fnv1a(h, sweep.file);
  for (const SweepAxis& a : sweep.axes) {
    h = fnv1a(h, a.path);
    for (const SweepValue& v : a.values) h = fnv1a(fnv1a(h, v.yaml), v.text);
  }
  for (std::uint64_t s : sweep.seeds) h = fnv1a(h, std::to_string(s));
  const SweepStudies& st = sweep.studies;
  h = fnv1a(h, fmt::format("{}{}{}", st.plan, st.reliability, st.reliability_trials));
  if (st.simulate) {
    h = fnv1a(h, "simulate " + st.engine);
    for (const SweepScenario& s : st.scenarios) h = fnv1a(fnv1a(h, s.file), s.text);
  }
  if (st.hash) h = fnv1a(h, fmt::format("hash {} {} {} {}", st.hash_elephants, st.hash_ring, st.hash_trials, st.hash_compare));
  h = fnv1a(h, sweep.base_text);
  return fmt::format("{:016x}", h);
}

std::string journal_path(const std::string& dir, const std::string& key, std::size_t point) {
  return (std::filesystem::path(dir) / fmt::format("{}-{:06}.json", key, point)).string();
}

std::string point_identity(const SweepFile& sweep, const SweepPoint& point) {
  std::string s;
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) s += sweep.axes[a].values[point.value[a]].yaml + "\n";
  return s;
}

std::string encode_entry(const std::string& identity, const PointResult& r) {
  nlohmann::ordered_json j;
  j["point"] = identity;
  j["status"] = static_cast<int>(r.status);
  j["reason"] = r.reason;
  auto rows = nlohmann::ordered_json::array();
  for (const SweepRow& row : r.rows) {
    auto metrics = nlohmann::ordered_json::array();
    for (const auto& m : row.metrics) metrics.push_back(m ? nlohmann::ordered_json(*m) : nlohmann::ordered_json());
    rows.push_back({{"seed", row.seed}, {"metrics", metrics}});
  }
  j["rows"] = rows;
  return j.dump() + "\n";
}

std::optional<PointResult> decode_entry(const std::string& text, const std::string& identity) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("point", "") != identity || !j.contains("rows")) return std::nullopt;
  PointResult r;
  r.status = static_cast<PointStatus>(j.value("status", 0));
  r.reason = j.value("reason", "");
  for (const auto& row : j.at("rows")) {
    SweepRow out;
    out.seed = row.at("seed").get<std::uint64_t>();
    for (const auto& m : row.at("metrics")) out.metrics.push_back(m.is_null() ? std::nullopt : std::optional<double>(m.get<double>()));
    r.rows.push_back(std::move(out));
  }
  return r;
}

}  // namespace

std::vector<SweepPoint> sweep_points(const SweepFile& sweep) {
  const auto groups = sweep_axis_groups(sweep);
  std::vector<SweepPoint> points;
  std::vector<std::size_t> at(groups.size(), 0);
  while (true) {
    SweepPoint p;
    p.value.assign(sweep.axes.size(), 0);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      for (std::size_t a : groups[g]) p.value[a] = at[g];
    }
    if (!excluded(sweep, p)) points.push_back(std::move(p));
    // The last group varies fastest.
    std::size_t g = groups.size();
    while (g > 0) {
      --g;
      if (++at[g] < sweep.axes[groups[g].front()].values.size()) break;
      at[g] = 0;
      if (g == 0) return points;
    }
    if (groups.empty()) return points;
  }
}

std::string point_spec_text(const SweepFile& sweep, const SweepPoint& point) {
  std::vector<std::pair<std::string, std::string>> settings;
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
    const SweepValue& v = sweep.axes[a].values[point.value[a]];
    if (!sweep.axes[a].variants) settings.emplace_back(sweep.axes[a].path, v.yaml);
    for (const SweepSetting& s : v.settings) settings.emplace_back(s.path, s.yaml);
  }
  return spec_with(sweep.base_text, settings);
}

PointResult evaluate_point(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point) {
  PointResult out;
  SpecReading reading = read_spec(sweep.base_path, point_spec_text(sweep, point));
  auto valid = validate_reading(reading, catalog);
  if (!valid) return {PointStatus::kInfeasible, reason_of(valid.errors()), {}};
  auto fabric = build_fabric(valid.value(), catalog);
  if (!fabric) return {PointStatus::kInfeasible, reason_of(fabric.errors()), {}};
  std::vector<std::optional<double>> plan_metrics;
  if (sweep.studies.plan) {
    const Plan p = plan(fabric->spec(), fabric->topology(), fabric->catalog());
    plan_metrics = {total_switches(p), to_gbps(p.bisection) / 1000, known(p.power), known(p.cost)};
  }
  for (std::uint64_t seed : sweep.seeds) {
    SweepRow row;
    row.seed = seed;
    row.metrics = plan_metrics;
    if (sweep.studies.reliability) {
      const ReliabilityTrials trials{.seed = seed, .trials = sweep.studies.reliability_trials, .threads = 1};
      auto r = study_design_reliability(fabric.value(), reliability_inputs(fabric->spec().reliability), trials);
      if (!r) return {PointStatus::kFailed, "reliability: " + reason_of(r.errors()), {}};
      const double per_30_days = 720.0 / r->model.job.horizon_hours;
      row.metrics.insert(row.metrics.end(), {r->fabric.p_any_down, r->mc.lost_hours.mean * per_30_days,
                                             r->mc.interruptions.mean * per_30_days});
    }
    for (const auto& [name, on, study] : {std::tuple{"simulate", sweep.studies.simulate, &simulate_study_metrics},
                                          std::tuple{"hash", sweep.studies.hash, &hash_study_metrics}}) {
      if (!on) continue;
      auto m = study(sweep.studies, fabric.value(), seed);
      if (!m) return {PointStatus::kFailed, std::string(name) + ": " + reason_of(m.errors()), {}};
      row.metrics.insert(row.metrics.end(), m->begin(), m->end());
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::string encode_point(const SweepFile& sweep, const SweepPoint& point, const PointResult& result) {
  return encode_entry(point_identity(sweep, point), result);
}

std::optional<PointResult> decode_point(const SweepFile& sweep, const SweepPoint& point, const std::string& text) {
  return decode_entry(text, point_identity(sweep, point));
}

// A journal entry is written atomically, so it is whole or absent; one that does not parse or
// belongs to another point (the sweep file changed) is computed again.
Result<std::vector<std::size_t>> resume_sweep(const SweepFile& sweep, const std::string& checkpoint_dir, SweepRun& run) {
  run.points = sweep_points(sweep);
  run.results.assign(run.points.size(), PointResult{});
  std::vector<std::size_t> todo;
  if (!checkpoint_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(checkpoint_dir, ec);
    if (ec) return Diagnostic{{checkpoint_dir, 0, 0}, "--checkpoint", "cannot create the folder: " + ec.message()};
  }
  const std::string key = journal_key(sweep);
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    std::optional<PointResult> done;
    const std::string path = checkpoint_dir.empty() ? "" : journal_path(checkpoint_dir, key, i);
    if (!path.empty() && std::filesystem::exists(path)) {
      if (auto text = read_text_file(path, "a sweep journal entry")) done = decode_point(sweep, run.points[i], text.value());
    }
    if (done) {
      run.results[i] = std::move(*done);
    } else {
      todo.push_back(i);
    }
  }
  return todo;
}

Result<Unit> journal_point(const SweepFile& sweep, const std::string& checkpoint_dir, const SweepRun& run, std::size_t i) {
  if (checkpoint_dir.empty()) return Unit{};
  return write_file_atomic(journal_path(checkpoint_dir, journal_key(sweep), i), encode_point(sweep, run.points[i], run.results[i]));
}

SweepProgressTracker::SweepProgressTracker(std::size_t total, std::size_t resumed, unsigned workers)
    : progress_{resumed, 0, 0, total, -1}, resumed_(resumed), workers_(std::max(1U, workers)) {}

const SweepProgress& SweepProgressTracker::started() {
  ++progress_.running;
  return progress_;
}

const SweepProgress& SweepProgressTracker::finished(PointStatus status, double seconds) {
  if (progress_.running > 0) --progress_.running;
  ++progress_.done;
  if (status == PointStatus::kFailed) ++progress_.failed;
  cost_seconds_ += seconds;
  const auto timed = static_cast<double>(progress_.done - resumed_);
  progress_.eta_seconds = cost_seconds_ / timed * static_cast<double>(progress_.total - progress_.done) / workers_;
  return progress_;
}

Result<SweepRun> run_sweep(const SweepFile& sweep, const Catalog& catalog, const SweepOptions& options) {
  SweepRun run;
  auto pending = resume_sweep(sweep, options.checkpoint_dir, run);
  if (!pending) return pending.errors();
  const std::vector<std::size_t>& todo = pending.value();
  std::mutex mutex;
  Diagnostics journal_errors;
  std::atomic<std::size_t> next{0};
  const unsigned hardware = std::max(1U, std::thread::hardware_concurrency());
  const auto threads = static_cast<unsigned>(
      std::min<std::size_t>(options.threads == 0 ? hardware : options.threads, std::max<std::size_t>(1, todo.size())));
  SweepProgressTracker tracker(run.points.size(), run.points.size() - todo.size(), threads);
  run_on_threads(threads, [&](unsigned) {
    for (std::size_t t = next++; t < todo.size(); t = next++) {
      const std::size_t i = todo[t];
      {
        std::lock_guard lock(mutex);
        const SweepProgress& p = tracker.started();
        if (options.progress) options.progress(p);
      }
      const auto start = std::chrono::steady_clock::now();
      PointResult r = evaluate_point(sweep, catalog, run.points[i]);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard lock(mutex);
      run.results[i] = std::move(r);
      auto journaled = journal_point(sweep, options.checkpoint_dir, run, i);
      if (!journaled) journal_errors.push_back(journaled.errors().front());
      const SweepProgress& p = tracker.finished(run.results[i].status, seconds);
      if (options.progress) options.progress(p);
    }
  });
  if (!journal_errors.empty()) return journal_errors;
  run.computed = todo.size();
  return run;
}

}  // namespace ct
