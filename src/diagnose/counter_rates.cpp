#include "diagnose/counter_rates.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string_view>
#include <tuple>

namespace ct {
namespace {

// The sort key of a series: transmit before receive.
using ViewKey = std::tuple<std::string_view, std::string_view, CounterKind, bool>;

ViewKey view_key(const CounterSample& c) { return ViewKey{c.instance, c.device, c.kind, !c.transmit}; }

// The order of two keys, each string compared once.
bool key_less(const ViewKey& a, const ViewKey& b) {
  if (const int c = std::get<0>(a).compare(std::get<0>(b)); c != 0) return c < 0;
  if (const int c = std::get<1>(a).compare(std::get<1>(b)); c != 0) return c < 0;
  if (std::get<2>(a) != std::get<2>(b)) return std::get<2>(a) < std::get<2>(b);
  return std::get<3>(a) < std::get<3>(b);
}

// Instance and device hashed whole (std::hash: eight bytes a step), then kind and direction.
std::uint64_t series_hash(const CounterSample& c) {
  const std::hash<std::string_view> hash;
  std::uint64_t h = hash(c.instance);
  h = (h ^ hash(c.device)) * 0x100000001B3ull + 0x1F;
  h = (h ^ (static_cast<unsigned>(c.kind) * 2u + (c.transmit ? 1u : 0u))) * 0x100000001B3ull;
  return h;
}

std::string series_text(const CounterSample& c) {
  return "instance=\"" + c.instance + "\" device=\"" + c.device + "\" " + std::string(counter_kind_name(c.kind)) +
         (c.transmit ? " transmit" : " receive");
}

// A sample of some scrape, tagged with a 64-bit hash of its series and its position.
struct Ref {
  std::uint64_t hash;
  std::uint32_t seq;
  const CounterSample* c;
};

// One series: refs[begin, end), in time order.
struct Run {
  ViewKey key;
  std::size_t begin, end;
};

// Every sample grouped into its series, without a map: the refs sorted by (hash, series, time,
// position), in two steps, so that a series is one run (the series itself is compared, so a hash collision cannot
// merge two), then the runs in (instance, device, kind, transmit first) order (deterministic
// output). `refs` is filled; the scrapes' own warnings are copied to `warnings`.
std::vector<Run> series_runs(std::span<const Scrape> scrapes, std::vector<Ref>& refs, Diagnostics& warnings) {
  std::size_t total = 0;
  for (const Scrape& s : scrapes) total += s.samples.size();
  refs.reserve(total);
  for (const Scrape& s : scrapes) {
    for (const Diagnostic& w : s.warnings) warnings.push_back(w);
    for (const CounterSample& c : s.samples) {
      refs.push_back(Ref{series_hash(c), static_cast<std::uint32_t>(refs.size()), &c});
    }
  }
  auto same_series = [](const CounterSample& a, const CounterSample& b) {
    return a.kind == b.kind && a.transmit == b.transmit && a.instance == b.instance && a.device == b.device;
  };
  // By hash alone (integers), then each hash's few refs by (series, time, position).
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return a.hash != b.hash ? a.hash < b.hash : a.seq < b.seq; });
  for (std::size_t i = 0; i < refs.size();) {
    std::size_t j = i + 1;
    while (j < refs.size() && refs[j].hash == refs[i].hash) ++j;
    std::sort(refs.begin() + static_cast<std::ptrdiff_t>(i), refs.begin() + static_cast<std::ptrdiff_t>(j), [](const Ref& a, const Ref& b) {
      const auto ka = view_key(*a.c), kb = view_key(*b.c);
      if (ka != kb) return key_less(ka, kb);
      if (a.c->time_ms != b.c->time_ms) return a.c->time_ms < b.c->time_ms;
      return a.seq < b.seq;
    });
    i = j;
  }
  std::vector<Run> runs;
  for (std::size_t i = 0; i < refs.size();) {
    std::size_t j = i + 1;
    while (j < refs.size() && refs[j].hash == refs[i].hash && same_series(*refs[j].c, *refs[i].c)) ++j;
    runs.push_back(Run{view_key(*refs[i].c), i, j});
    i = j;
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return key_less(a.key, b.key); });
  return runs;
}

// A run's samples at distinct times into `unique`: samples at an equal time are one sample when
// their counts agree; false, with an error per disagreement, otherwise.
bool distinct_times(std::span<const Ref> run, std::vector<const CounterSample*>& unique, Diagnostics& errors) {
  const CounterSample& first = *run.front().c;
  unique.clear();
  bool bad = false;
  for (const Ref& ref : run) {
    const CounterSample* c = ref.c;
    if (!unique.empty() && unique.back()->time_ms == c->time_ms) {
      if (unique.back()->count != c->count) {
        errors.push_back(Diagnostic{c->where, "timestamp",
                                    series_text(first) + ": a second sample at the same time " + std::to_string(c->time_ms) +
                                        " ms with a different count (first at " + unique.back()->where.file + ":" +
                                        std::to_string(unique.back()->where.line) + ")"});
        bad = true;
      }
      continue;
    }
    unique.push_back(c);
  }
  return !bad;
}

// The delta from a to b when b < a is a wrap (see the header): the wrapped delta, or -1 when the
// counter's width or the bound (-1: none) says it reset instead.
double wrapped_delta(const CounterSample& a, const CounterSample& b, double bound) {
  double wrapped = -1;
  if (a.width == CounterWidth::k32 && a.count < (std::uint64_t{1} << 32) && b.count < (std::uint64_t{1} << 32)) {
    wrapped = static_cast<double>((std::uint64_t{1} << 32) - a.count + b.count);
  } else if (a.width == CounterWidth::k64 && a.count >= (std::uint64_t{1} << 63)) {
    wrapped = static_cast<double>(b.count - a.count);  // modulo 2^64
  }
  return wrapped >= 0 && (bound < 0 || wrapped <= bound) ? wrapped : -1;
}

// The rate of one series from its samples at distinct times (>= 2): the sum of the deltas, each
// wrap and reset counted in `r` and warned about.
void series_rate(const std::vector<const CounterSample*>& unique, const RateOptions& options, SeriesRate& r,
                 Diagnostics& warnings) {
  const CounterSample& first = *unique.front();
  const std::uint32_t unit = first.unit;
  double counts = 0;
  r.timeline.reserve(unique.size());
  r.timeline.push_back(TimedBytes{first.time_ms, 0});
  for (std::size_t i = 1; i < unique.size(); ++i) {
    const CounterSample& a = *unique[i - 1];
    const CounterSample& b = *unique[i];
    if (b.count >= a.count) {
      counts += static_cast<double>(b.count - a.count);
      r.timeline.push_back(TimedBytes{b.time_ms, counts * unit});
      continue;
    }
    const double dt = static_cast<double>(b.time_ms - a.time_ms) / 1000.0;
    const double bound = options.max_bytes_per_second > 0 ? options.max_bytes_per_second * dt / unit : -1;
    const double wrapped = wrapped_delta(a, b, bound);
    if (wrapped >= 0) {
      counts += wrapped;
      ++r.wraps;
      warnings.push_back(Diagnostic{b.where, "series",
                                    series_text(first) + ": counter wrapped at 2^" + (a.width == CounterWidth::k32 ? "32" : "64") +
                                        " since " + a.where.file + ":" + std::to_string(a.where.line),
                                    Severity::kWarning});
    } else {
      counts += static_cast<double>(b.count);
      ++r.resets;
      warnings.push_back(Diagnostic{b.where, "series",
                                    series_text(first) + ": counter went back from " + std::to_string(a.count) + " to " +
                                        std::to_string(b.count) + ": a reset (device restart); counted from zero",
                                    Severity::kWarning});
    }
    r.timeline.push_back(TimedBytes{b.time_ms, counts * unit});
  }
  r.bytes = counts * unit;
  r.seconds = static_cast<double>(unique.back()->time_ms - unique.front()->time_ms) / 1000.0;
  r.bytes_per_second = r.bytes / r.seconds;
}

// Per instance, the scrapes that hold a sample of it.
std::map<std::string_view, std::size_t> scrapes_per_instance(std::span<const Scrape> scrapes) {
  std::map<std::string_view, std::size_t> count;
  for (const Scrape& s : scrapes) {
    std::set<std::string_view> here;
    for (const CounterSample& c : s.samples) here.insert(c.instance);
    for (const std::string_view i : here) ++count[i];
  }
  return count;
}

}  // namespace

Result<CounterRates> compute_rates(std::span<const Scrape> scrapes, const RateOptions& options) {
  CounterRates out;
  out.scrapes = scrapes.size();
  Diagnostics errors;
  std::vector<Ref> refs;
  const std::vector<Run> runs = series_runs(scrapes, refs, out.warnings);
  out.series.reserve(runs.size());
  std::vector<const CounterSample*> unique;
  std::map<std::string_view, std::size_t> of_instance;  // filled when a series misses a scrape
  for (const Run& run : runs) {
    if (!distinct_times(std::span<const Ref>(refs).subspan(run.begin, run.end - run.begin), unique, errors)) continue;
    const CounterSample& first = *unique.front();
    if (unique.size() < 2) {
      out.warnings.push_back(Diagnostic{first.where, "series",
                                        series_text(first) + " is in only one scrape of " + std::to_string(scrapes.size()) +
                                            " (no time to measure a rate over)",
                                        Severity::kWarning});
      continue;
    }
    if (unique.size() < scrapes.size()) {
      // Missing from a scrape of its own host only: another host's file never holds it.
      if (of_instance.empty()) of_instance = scrapes_per_instance(scrapes);
      const std::size_t expected = of_instance[first.instance];
      if (unique.size() < expected) {
        out.warnings.push_back(Diagnostic{first.where, "series",
                                          series_text(first) + " is missing from " + std::to_string(expected - unique.size()) +
                                              " of " + std::to_string(expected) + " scrapes of its host; rate from the others",
                                          Severity::kWarning});
      }
    }
    SeriesRate r;
    r.instance = first.instance;
    r.device = first.device;
    r.kind = first.kind;
    r.transmit = first.transmit;
    r.where = first.where;
    r.samples = static_cast<std::uint32_t>(unique.size());
    series_rate(unique, options, r, out.warnings);
    out.series.push_back(std::move(r));
  }
  if (!errors.empty()) return errors;
  return out;
}

}  // namespace ct
