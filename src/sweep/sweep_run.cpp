#include "sweep/sweep_run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/reliability_study.h"
#include "core/text.h"
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

// What a metric can be when computed (sweep_metrics()): a count (switches) an integer; a
// probability or a share (p_*, *.workers_lost) within [0, 1]; every other figure (a time, a rate,
// a power, a cost, hours) finite and >= 0; each at most kMaxFigure, past anything the models
// compute (the largest, a 131,072-GPU fabric's cost, is about 1e10 USD; int64 picoseconds end at
// 9.2e6 s, int64 bits/s at 9.2e6 Tb/s). null: a figure the catalog or the study does not give.
constexpr double kMaxFigure = 1e15;

struct MetricRange {
  double max = kMaxFigure;
  bool integral = false;
  const char* what = "a figure, finite, 0 .. 1e15";
};

MetricRange metric_range(std::string_view name) {
  if (name == "switches") return {kMaxFigure, true, "a count, an integer 0 .. 1e15"};
  if (name.starts_with("p_") || name.ends_with(".workers_lost")) return {1, false, "a probability or share, 0 .. 1"};
  return {};
}

// A journal entry read back and checked field by field against the sweep (its status, one row per
// seed with the sweep's seeds in order, each row's metrics those of sweep_metrics() within their
// ranges): every fault an error naming the entry's file (line 1: an entry is one line) and the
// field, never a row of the report.
class EntryReader {
 public:
  EntryReader(const SweepFile& sweep, std::string file)
      : sweep_(sweep), file_(std::move(file)), metrics_(sweep_metrics(sweep.studies)) {}

  // nullopt: no entry of this point (not a JSON object, none naming a point, another point's: the
  // sweep file changed), computed again; or a fault (errors()).
  std::optional<PointResult> read(const nlohmann::json& j, const std::string& identity) {
    if (!j.is_object() || !j.contains("point") || !j["point"].is_string()) return std::nullopt;
    if (j["point"].get_ref<const std::string&>() != identity) return std::nullopt;
    PointResult r;
    const auto& status = j.contains("status") ? j["status"] : nlohmann::json();
    if (!status.is_number_integer() || status.get<std::int64_t>() < 0 || status.get<std::int64_t>() > 2) {
      return fault("status", fmt::format("expected 0 (ok), 1 (infeasible) or 2 (failed), got {}", excerpt(status.dump())));
    }
    r.status = static_cast<PointStatus>(status.get<int>());
    if (j.contains("reason") && !j["reason"].is_string()) return fault("reason", "not text");
    r.reason = j.value("reason", "");
    if (!j.contains("rows") || !j["rows"].is_array()) return fault("rows", "missing or not a list");
    const std::size_t expected = r.status == PointStatus::kOk ? sweep_.seeds.size() : 0;
    if (j["rows"].size() != expected) {
      return fault("rows", fmt::format("{} row(s), expected {} (one per seed of an ok point, none otherwise)", j["rows"].size(), expected));
    }
    for (std::size_t k = 0; k < expected; ++k) read_row(j["rows"][k], k, r);
    if (!errors_.empty()) return std::nullopt;
    return r;
  }

  Diagnostics& errors() { return errors_; }

 private:
  std::nullopt_t fault(std::string field, std::string message) {
    errors_.push_back(Diagnostic{SourceLocation{file_, 1, 0}, std::move(field), std::move(message)});
    return std::nullopt;
  }

  void read_row(const nlohmann::json& row, std::size_t k, PointResult& r) {
    const std::string at = fmt::format("rows[{}]", k);
    const auto& seed = row.is_object() && row.contains("seed") ? row["seed"] : nlohmann::json();
    if (!seed.is_number_unsigned() || seed.get<std::uint64_t>() != sweep_.seeds[k]) {
      fault(at + ".seed", fmt::format("expected {} (the sweep's seed {}), got {}", sweep_.seeds[k], k, excerpt(seed.dump())));
      return;
    }
    const auto& metrics = row.contains("metrics") ? row["metrics"] : nlohmann::json();
    if (!metrics.is_array() || metrics.size() != metrics_.size()) {
      fault(at + ".metrics", fmt::format("expected a list of the {} metrics of the sweep's studies, got {}", metrics_.size(),
                                         excerpt(metrics.dump())));
      return;
    }
    SweepRow out;
    out.seed = sweep_.seeds[k];
    for (std::size_t m = 0; m < metrics_.size(); ++m) {
      if (metrics[m].is_null()) {
        out.metrics.emplace_back(std::nullopt);
        continue;
      }
      const MetricRange range = metric_range(metrics_[m]);
      const double v = metrics[m].is_number() ? metrics[m].get<double>() : -1;
      if (!metrics[m].is_number() || !std::isfinite(v) || v < 0 || v > range.max || (range.integral && v != std::floor(v))) {
        fault(fmt::format("{}.metrics[{}]", at, m),
              fmt::format("{} = {}: expected {}", metrics_[m], excerpt(metrics[m].dump()), range.what));
        continue;
      }
      out.metrics.emplace_back(v);
    }
    r.rows.push_back(std::move(out));
  }

  const SweepFile& sweep_;
  std::string file_;
  std::vector<std::string> metrics_;
  Diagnostics errors_;
};

Result<std::optional<PointResult>> decode_entry(const SweepFile& sweep, const std::string& text, const std::string& identity,
                                                const std::string& file) {
  EntryReader reader(sweep, file);
  auto r = reader.read(nlohmann::json::parse(text, nullptr, false), identity);
  if (!reader.errors().empty()) return reader.errors();
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

namespace {

// One seed's per-trial outcomes of a point's two Monte Carlos.
struct SeedTrials {
  TrialResults reliability;
  HashTrialOutcomes hash;
};

// How a point's Monte Carlos run: whole (neither pointer set); one slice, its outcomes kept by seed
// (the plan and simulate studies, which have no trials, are then left to the finishing run); or
// none, every trial's outcomes gathered from the slices.
struct PointTrials {
  TrialSlice slice;
  std::vector<SeedTrials>* kept = nullptr;
  const std::vector<SeedTrials>* gathered = nullptr;
};

// The part of a slice that falls within a Monte Carlo of `total` trials.
std::uint32_t clipped(TrialSlice slice, std::uint32_t total) {
  return slice.first >= total ? 0 : std::min(slice.count, total - slice.first);
}

// P(anything down), hours lost and interruptions per 30 days. The model comes from the study run
// with no trials; run_trials then summarize is the study's own Monte Carlo, whole or gathered.
Result<SweepMetrics> reliability_metrics(const SweepFile& sweep, const Fabric& fabric, std::uint64_t seed,
                                         const PointTrials& t, std::size_t k) {
  const ReliabilityTrials options{.seed = seed, .trials = sweep.studies.reliability_trials, .threads = 1};
  auto r = study_design_reliability(fabric, reliability_inputs(fabric.spec().reliability),
                                    {.seed = seed, .trials = 0, .threads = 1});
  if (!r) return r.errors();
  if (t.kept != nullptr) {
    ReliabilityTrials slice = options;
    slice.first_trial = static_cast<int>(t.slice.first);
    slice.trials = static_cast<int>(clipped(t.slice, static_cast<std::uint32_t>(options.trials)));
    (*t.kept)[k].reliability = run_trials(r->model, slice);
    return SweepMetrics{};
  }
  if (t.gathered != nullptr) {
    const TrialResults& g = (*t.gathered)[k].reliability;
    const std::size_t n = static_cast<std::size_t>(options.trials);
    const std::size_t cells = n * r->model.classes.size();
    if (g.outcomes.size() != n || g.failures.size() != cells || g.down_mid.size() != cells) {
      return Diagnostic{{sweep.file, 0, 0}, "", "the slices' reliability trials are incomplete"};
    }
  }
  const MonteCarloSummary mc = summarize(r->model, options, t.gathered != nullptr ? (*t.gathered)[k].reliability
                                                                                  : run_trials(r->model, options));
  const double per_30_days = 720.0 / r->model.job.horizon_hours;
  return SweepMetrics{r->fabric.p_any_down, mc.lost_hours.mean * per_30_days, mc.interruptions.mean * per_30_days};
}

// The hash study's metrics, whole, of a slice, or from the gathered trials.
Result<SweepMetrics> hash_metrics(const SweepFile& sweep, const Fabric& fabric, std::uint64_t seed,
                                  const PointTrials& t, std::size_t k) {
  HashTrials h;
  if (t.kept != nullptr) {
    h = {t.slice.first, clipped(t.slice, sweep.studies.hash_trials), &(*t.kept)[k].hash, nullptr};
    if (h.count == 0) return SweepMetrics{};
  } else if (t.gathered != nullptr) {
    h.gathered = &(*t.gathered)[k].hash;
    if (h.gathered->monte_carlo.size() != sweep.studies.hash_trials) {
      return Diagnostic{{sweep.file, 0, 0}, "", "the slices' hash trials are incomplete"};
    }
  }
  return hash_study_metrics(sweep.studies, fabric, seed, h);
}

PointResult evaluate(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point, const PointTrials& t) {
  PointResult out;
  if (t.kept != nullptr) t.kept->assign(sweep.seeds.size(), {});
  if (t.gathered != nullptr && t.gathered->size() != sweep.seeds.size()) {
    return {PointStatus::kFailed, "the slices' trials could not be read", {}};
  }
  SpecReading reading = read_spec(sweep.base_path, point_spec_text(sweep, point));
  auto valid = validate_reading(reading, catalog);
  if (!valid) return {PointStatus::kInfeasible, reason_of(valid.errors()), {}};
  auto fabric = build_fabric(valid.value(), catalog);
  if (!fabric) return {PointStatus::kInfeasible, reason_of(fabric.errors()), {}};
  std::vector<std::optional<double>> plan_metrics;
  if (sweep.studies.plan && t.kept == nullptr) {
    const Plan p = plan(fabric->spec(), fabric->topology(), fabric->catalog());
    plan_metrics = {total_switches(p), to_gbps(p.bisection) / 1000, known(p.power), known(p.cost)};
  }
  const auto simulate = [&](const SweepFile& sw, const Fabric& f, std::uint64_t seed, const PointTrials& pt, std::size_t) {
    return pt.kept != nullptr ? Result<SweepMetrics>(SweepMetrics{}) : simulate_study_metrics(sw.studies, f, seed);
  };
  for (std::size_t k = 0; k < sweep.seeds.size(); ++k) {
    SweepRow row;
    row.seed = sweep.seeds[k];
    row.metrics = plan_metrics;
    using Study = std::function<Result<SweepMetrics>(const SweepFile&, const Fabric&, std::uint64_t, const PointTrials&, std::size_t)>;
    for (const auto& [name, on, study] : {std::tuple{"reliability", sweep.studies.reliability, Study(reliability_metrics)},
                                          std::tuple{"simulate", sweep.studies.simulate, Study(simulate)},
                                          std::tuple{"hash", sweep.studies.hash, Study(hash_metrics)}}) {
      if (!on) continue;
      auto m = study(sweep, fabric.value(), row.seed, t, k);
      if (!m) return {PointStatus::kFailed, std::string(name) + ": " + reason_of(m.errors()), {}};
      row.metrics.insert(row.metrics.end(), m->begin(), m->end());
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

// ---- a slice's outcomes as bytes: each vector as its length and its elements' own bytes ----

template <class T>
void put(std::string& out, const std::vector<T>& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::uint64_t n = v.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  if (n > 0) out.append(reinterpret_cast<const char*>(v.data()), n * sizeof(T));
}

template <class T>
bool get(std::string_view& in, std::vector<T>& v) {
  std::uint64_t n = 0;
  if (in.size() < sizeof n) return false;
  std::memcpy(&n, in.data(), sizeof n);
  in.remove_prefix(sizeof n);
  if (n > in.size() / sizeof(T)) return false;
  v.resize(n);
  if (n > 0) std::memcpy(v.data(), in.data(), n * sizeof(T));
  in.remove_prefix(n * sizeof(T));
  return true;
}

std::string encode_trials(const std::vector<SeedTrials>& trials) {
  std::string out;
  put(out, std::vector<std::uint64_t>{trials.size()});
  for (const SeedTrials& s : trials) {
    put(out, s.reliability.outcomes);
    put(out, s.reliability.failures);
    put(out, s.reliability.down_mid);
    put(out, s.hash.monte_carlo);
    put(out, s.hash.comparison);
  }
  return out;
}

// Appends a slice's outcomes to the trials gathered so far; false when the bytes do not read.
bool gather_trials(std::string_view in, std::vector<SeedTrials>& gathered) {
  std::vector<std::uint64_t> seeds;
  if (!get(in, seeds) || seeds.size() != 1 || seeds[0] != gathered.size()) return false;
  for (SeedTrials& g : gathered) {
    SeedTrials s;
    if (!get(in, s.reliability.outcomes) || !get(in, s.reliability.failures) || !get(in, s.reliability.down_mid) ||
        !get(in, s.hash.monte_carlo) || !get(in, s.hash.comparison)) {
      return false;
    }
    append_trials(g.reliability, s.reliability);
    g.hash.monte_carlo.insert(g.hash.monte_carlo.end(), s.hash.monte_carlo.begin(), s.hash.monte_carlo.end());
    g.hash.comparison.insert(g.hash.comparison.end(), s.hash.comparison.begin(), s.hash.comparison.end());
  }
  return in.empty();
}

}  // namespace

PointResult evaluate_point(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point) {
  return evaluate(sweep, catalog, point, {});
}

std::vector<TrialSlice> point_slices(const SweepFile& sweep) {
  const SweepStudies& st = sweep.studies;
  std::uint32_t most = 0;
  if (st.reliability) most = std::max(most, static_cast<std::uint32_t>(st.reliability_trials));
  if (st.hash) most = std::max(most, st.hash_trials);
  const std::uint32_t size = std::max(1U, st.slice_trials);
  if (most <= size) return {TrialSlice{}};
  std::vector<TrialSlice> slices;
  for (std::uint32_t first = 0; first < most; first += std::min(size, most - first)) {
    slices.push_back({first, std::min(size, most - first)});
  }
  return slices;
}

std::string evaluate_slice(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point, TrialSlice slice) {
  std::vector<SeedTrials> kept;
  evaluate(sweep, catalog, point, {slice, &kept, nullptr});
  return encode_trials(kept);
}

PointResult finish_point(const SweepFile& sweep, const Catalog& catalog, const SweepPoint& point,
                         const std::vector<std::string>& slices) {
  std::vector<SeedTrials> gathered(sweep.seeds.size());
  for (const std::string& bytes : slices) {
    if (!gather_trials(bytes, gathered)) gathered.clear();
    if (gathered.empty()) break;
  }
  return evaluate(sweep, catalog, point, {{}, nullptr, &gathered});
}

SweepWork::SweepWork(const SweepFile& sweep, const std::vector<std::size_t>& todo) {
  const std::vector<TrialSlice> slices = point_slices(sweep);
  slices_ = slices.size();
  split_points_ = slices_ > 1 ? todo.size() : 0;
  std::size_t points = 0;
  for (std::size_t i : todo) {
    points = std::max(points, i + 1);
    for (std::size_t k = 0; k < slices_; ++k) items_.push_back({i, k, slices[k]});
  }
  bytes_.resize(points);
  arrived_.assign(points, 0);
}

std::optional<std::vector<std::string>> SweepWork::arrived(const SweepItem& item, std::string bytes) {
  std::vector<std::string>& b = bytes_[item.point];
  if (b.empty()) b.resize(slices_);
  b[item.slice] = std::move(bytes);
  if (++arrived_[item.point] < slices_) return std::nullopt;
  return std::exchange(b, {});
}

std::string encode_point(const SweepFile& sweep, const SweepPoint& point, const PointResult& result) {
  return encode_entry(point_identity(sweep, point), result);
}

Result<std::optional<PointResult>> decode_point(const SweepFile& sweep, const SweepPoint& point, const std::string& text,
                                                const std::string& file) {
  return decode_entry(sweep, text, point_identity(sweep, point), file);
}

// A journal entry is written atomically, so it is whole or absent; one that cannot be read, is not
// a JSON object naming a point (an empty file: the MPI tests' gate) or belongs to another point
// (the sweep file changed) is computed again; an entry of this point that holds a value its study
// cannot give is an error (exit 1), never a row.
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
  Diagnostics errors;
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    std::optional<PointResult> done;
    const std::string path = checkpoint_dir.empty() ? "" : journal_path(checkpoint_dir, key, i);
    if (!path.empty() && std::filesystem::exists(path)) {
      if (auto text = read_text_file(path, "a sweep journal entry")) {
        auto entry = decode_point(sweep, run.points[i], text.value(), path);
        if (!entry) errors.insert(errors.end(), entry.errors().begin(), entry.errors().end());
        else done = std::move(entry).value();
      }
    }
    if (done) {
      run.results[i] = std::move(*done);
    } else {
      todo.push_back(i);
    }
  }
  if (!errors.empty()) return errors;
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

// Workers take the next (point, slice) item; whoever brings a point's last slice gathers and
// finishes the point. Results are stored by point index whatever the order.
Result<SweepRun> run_sweep(const SweepFile& sweep, const Catalog& catalog, const SweepOptions& options) {
  SweepRun run;
  auto pending = resume_sweep(sweep, options.checkpoint_dir, run);
  if (!pending) return pending.errors();
  const std::vector<std::size_t>& todo = pending.value();
  SweepWork work(sweep, todo);
  const std::vector<SweepItem>& items = work.items();
  std::mutex mutex;
  Diagnostics journal_errors;
  std::atomic<std::size_t> next{0};
  const unsigned hardware = std::max(1U, std::thread::hardware_concurrency());
  const auto threads = static_cast<unsigned>(
      std::min<std::size_t>(options.threads == 0 ? hardware : options.threads, std::max<std::size_t>(1, items.size())));
  SweepProgressTracker tracker(run.points.size(), run.points.size() - todo.size(), threads);
  std::vector<std::chrono::steady_clock::time_point> started(run.points.size());
  run_on_threads(threads, [&](unsigned) {
    for (std::size_t t = next++; t < items.size(); t = next++) {
      const SweepItem& item = items[t];
      const std::size_t i = item.point;
      if (item.slice == 0) {
        std::lock_guard lock(mutex);
        started[i] = std::chrono::steady_clock::now();
        const SweepProgress& p = tracker.started();
        if (options.progress) options.progress(p);
      }
      std::optional<PointResult> r;
      if (item.trials.count == 0) {
        r = evaluate_point(sweep, catalog, run.points[i]);
      } else {
        std::string bytes = evaluate_slice(sweep, catalog, run.points[i], item.trials);
        std::optional<std::vector<std::string>> slices;
        {
          std::lock_guard lock(mutex);
          slices = work.arrived(item, std::move(bytes));
        }
        if (slices) r = finish_point(sweep, catalog, run.points[i], *slices);
      }
      if (!r) continue;
      std::lock_guard lock(mutex);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started[i]).count();
      run.results[i] = std::move(*r);
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
