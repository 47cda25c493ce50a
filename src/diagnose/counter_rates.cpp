#include "diagnose/counter_rates.h"

#include <algorithm>
#include <string_view>
#include <tuple>

namespace ct {
namespace {

// The sort key of a series: transmit before receive.
using ViewKey = std::tuple<std::string_view, std::string_view, CounterKind, bool>;

ViewKey view_key(const CounterSample& c) { return ViewKey{c.instance, c.device, c.kind, !c.transmit}; }

// FNV-1a over instance, device, kind and direction.
std::uint64_t series_hash(const CounterSample& c) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  auto mix = [&](std::string_view s) {
    for (const char ch : s) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001B3ull;
    h = (h ^ 0x1Fu) * 0x100000001B3ull;
  };
  mix(c.instance);
  mix(c.device);
  h = (h ^ (static_cast<unsigned>(c.kind) * 2u + (c.transmit ? 1u : 0u))) * 0x100000001B3ull;
  return h;
}

std::string series_text(const CounterSample& c) {
  return "instance=\"" + c.instance + "\" device=\"" + c.device + "\" " + std::string(counter_kind_name(c.kind)) +
         (c.transmit ? " transmit" : " receive");
}

}  // namespace

Result<CounterRates> compute_rates(std::span<const Scrape> scrapes, const RateOptions& options) {
  CounterRates out;
  out.scrapes = scrapes.size();
  Diagnostics errors;
  // Grouped without a map: every sample tagged with a 64-bit hash of its series and its position,
  // sorted by (hash, series, time, position) so that a series is one run (the series itself is
  // compared, so a hash collision cannot merge two), then the runs visited in (instance, device,
  // kind, transmit first) order (deterministic output).
  struct Ref {
    std::uint64_t hash;
    std::uint32_t seq;
    const CounterSample* c;
  };
  std::size_t total = 0;
  for (const Scrape& s : scrapes) total += s.samples.size();
  std::vector<Ref> refs;
  refs.reserve(total);
  for (const Scrape& s : scrapes) {
    for (const Diagnostic& w : s.warnings) out.warnings.push_back(w);
    for (const CounterSample& c : s.samples) {
      refs.push_back(Ref{series_hash(c), static_cast<std::uint32_t>(refs.size()), &c});
    }
  }
  auto same_series = [](const CounterSample& a, const CounterSample& b) {
    return a.kind == b.kind && a.transmit == b.transmit && a.instance == b.instance && a.device == b.device;
  };
  std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) {
    if (a.hash != b.hash) return a.hash < b.hash;
    const auto ka = view_key(*a.c), kb = view_key(*b.c);
    if (ka != kb) return ka < kb;
    if (a.c->time_ms != b.c->time_ms) return a.c->time_ms < b.c->time_ms;
    return a.seq < b.seq;
  });
  struct Run {
    ViewKey key;
    std::size_t begin, end;
  };
  std::vector<Run> runs;
  for (std::size_t i = 0; i < refs.size();) {
    std::size_t j = i + 1;
    while (j < refs.size() && refs[j].hash == refs[i].hash && same_series(*refs[j].c, *refs[i].c)) ++j;
    runs.push_back(Run{view_key(*refs[i].c), i, j});
    i = j;
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.key < b.key; });
  std::vector<const CounterSample*> samples, unique;
  for (const Run& run : runs) {
    samples.clear();
    for (std::size_t i = run.begin; i < run.end; ++i) samples.push_back(refs[i].c);
    const CounterSample& first = *samples.front();
    // Equal times: one sample if the counts agree, an error otherwise.
    unique.clear();
    bool bad = false;
    for (const CounterSample* c : samples) {
      if (!unique.empty() && unique.back()->time_ms == c->time_ms) {
        if (unique.back()->count != c->count) {
          errors.push_back(Diagnostic{c->where, "timestamp",
                                      series_text(first) + ": a second sample at the same time " +
                                          std::to_string(c->time_ms) + " ms with a different count (first at " +
                                          unique.back()->where.file + ":" + std::to_string(unique.back()->where.line) +
                                          ")"});
          bad = true;
        }
        continue;
      }
      unique.push_back(c);
    }
    if (bad) continue;
    if (unique.size() < 2) {
      out.warnings.push_back(Diagnostic{unique.front()->where, "series",
                                        series_text(first) + " is in only one scrape of " +
                                            std::to_string(scrapes.size()) + " (no time to measure a rate over)",
                                        Severity::kWarning});
      continue;
    }
    if (unique.size() < scrapes.size()) {
      out.warnings.push_back(Diagnostic{unique.front()->where, "series",
                                        series_text(first) + " is missing from " +
                                            std::to_string(scrapes.size() - unique.size()) + " of " +
                                            std::to_string(scrapes.size()) + " scrapes; rate from the others",
                                        Severity::kWarning});
    }
    SeriesRate r;
    r.instance = first.instance;
    r.device = first.device;
    r.kind = first.kind;
    r.transmit = first.transmit;
    r.where = unique.front()->where;
    r.samples = static_cast<std::uint32_t>(unique.size());
    const std::uint32_t unit = unique.front()->unit;
    double counts = 0;
    for (std::size_t i = 1; i < unique.size(); ++i) {
      const CounterSample& a = *unique[i - 1];
      const CounterSample& b = *unique[i];
      if (b.count >= a.count) {
        counts += static_cast<double>(b.count - a.count);
        continue;
      }
      const double dt = static_cast<double>(b.time_ms - a.time_ms) / 1000.0;
      const double bound = options.max_bytes_per_second > 0 ? options.max_bytes_per_second * dt / unit : -1;
      double wrapped = -1;
      if (a.width == CounterWidth::k32 && a.count < (std::uint64_t{1} << 32) && b.count < (std::uint64_t{1} << 32)) {
        wrapped = static_cast<double>((std::uint64_t{1} << 32) - a.count + b.count);
      } else if (a.width == CounterWidth::k64 && a.count >= (std::uint64_t{1} << 63)) {
        wrapped = static_cast<double>(b.count - a.count);  // modulo 2^64
      }
      if (wrapped >= 0 && (bound < 0 || wrapped <= bound)) {
        counts += wrapped;
        ++r.wraps;
        out.warnings.push_back(Diagnostic{b.where, "series",
                                          series_text(first) + ": counter wrapped at 2^" +
                                              (a.width == CounterWidth::k32 ? "32" : "64") + " since " + a.where.file +
                                              ":" + std::to_string(a.where.line),
                                          Severity::kWarning});
      } else {
        counts += static_cast<double>(b.count);
        ++r.resets;
        out.warnings.push_back(Diagnostic{b.where, "series",
                                          series_text(first) + ": counter went back from " + std::to_string(a.count) +
                                              " to " + std::to_string(b.count) +
                                              ": a reset (device restart); counted from zero",
                                          Severity::kWarning});
      }
    }
    r.bytes = counts * unit;
    r.seconds = static_cast<double>(unique.back()->time_ms - unique.front()->time_ms) / 1000.0;
    r.bytes_per_second = r.bytes / r.seconds;
    out.series.push_back(std::move(r));
  }
  if (!errors.empty()) return errors;
  return out;
}

}  // namespace ct
