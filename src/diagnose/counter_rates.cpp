#include "diagnose/counter_rates.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <set>
#include <span>
#include <string_view>

namespace ct {
namespace {

std::string series_text(const CounterSample& c) {
  return "instance=\"" + c.instance + "\" device=\"" + c.device + "\" " + std::string(counter_kind_name(c.kind)) +
         (c.transmit ? " transmit" : " receive");
}

// The first 8 bytes of s from `at` as a big-endian integer, zero-padded: of two texts the smaller
// integer is the smaller text (byte by byte, as std::string_view compares), and equal integers
// leave the order to the bytes after (or to the lengths).
std::uint64_t prefix_word(std::string_view s, std::size_t at) {
  std::uint64_t w = 0;
  if (s.size() >= at + 8) {
    std::memcpy(&w, s.data() + at, 8);
  } else if (at < s.size()) {
    std::memcpy(&w, s.data() + at, s.size() - at);
  }
  if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
  return w;
}

// A sample of some scrape with its position and the first bytes of its instance (16) and
// device (8), which decide most comparisons without reaching the strings.
struct Ref {
  std::uint64_t instance_head[2];
  std::uint64_t device_head;
  const CounterSample* c;
  std::uint32_t seq;
};

// The order of series (instance, device, kind, transmit first), then of samples (time, position).
bool ref_less(const Ref& a, const Ref& b) {
  if (a.instance_head[0] != b.instance_head[0]) return a.instance_head[0] < b.instance_head[0];
  if (a.instance_head[1] != b.instance_head[1]) return a.instance_head[1] < b.instance_head[1];
  const CounterSample& x = *a.c;
  const CounterSample& y = *b.c;
  if (x.instance.size() > 16 || x.instance.size() != y.instance.size()) {
    if (const int c = std::string_view(x.instance).compare(y.instance); c != 0) return c < 0;
  }
  if (a.device_head != b.device_head) return a.device_head < b.device_head;
  if (x.device.size() > 8 || x.device.size() != y.device.size()) {
    if (const int c = std::string_view(x.device).compare(y.device); c != 0) return c < 0;
  }
  if (x.kind != y.kind) return x.kind < y.kind;
  if (x.transmit != y.transmit) return x.transmit;
  if (x.time_ms != y.time_ms) return x.time_ms < y.time_ms;
  return a.seq < b.seq;
}

// One series: refs[begin, end), in time order.
struct Run {
  std::size_t begin, end;
};

// Every sample grouped into its series, without a map: the refs sorted by (series, time,
// position), so that a series is one run and the runs come in (instance, device, kind, transmit
// first) order (deterministic output). `refs` is filled; the scrapes' own warnings are copied to
// `warnings`.
std::vector<Run> series_runs(std::span<const Scrape> scrapes, std::vector<Ref>& refs, Diagnostics& warnings) {
  std::size_t total = 0;
  for (const Scrape& s : scrapes) total += s.samples.size();
  refs.reserve(total);
  for (const Scrape& s : scrapes) {
    for (const Diagnostic& w : s.warnings) warnings.push_back(w);
    for (const CounterSample& c : s.samples) {
      refs.push_back(Ref{{prefix_word(c.instance, 0), prefix_word(c.instance, 8)}, prefix_word(c.device, 0), &c,
                         static_cast<std::uint32_t>(refs.size())});
    }
  }
  std::sort(refs.begin(), refs.end(), ref_less);
  auto same_series = [](const CounterSample& a, const CounterSample& b) {
    return a.kind == b.kind && a.transmit == b.transmit && a.instance == b.instance && a.device == b.device;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < refs.size();) {
    std::size_t j = i + 1;
    while (j < refs.size() && same_series(*refs[j].c, *refs[i].c)) ++j;
    runs.push_back(Run{i, j});
    i = j;
  }
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
