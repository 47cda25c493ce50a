#include "diagnose/counter_rates.h"

#include <algorithm>
#include <unordered_map>
#include <tuple>

namespace ct {
namespace {

using SeriesKey = std::tuple<std::string, std::string, CounterKind, bool>;

std::string series_text(const SeriesKey& k) {
  return "instance=\"" + std::get<0>(k) + "\" device=\"" + std::get<1>(k) + "\" " +
         std::string(counter_kind_name(std::get<2>(k))) + (std::get<3>(k) ? " transmit" : " receive");
}

}  // namespace

Result<CounterRates> compute_rates(std::span<const Scrape> scrapes, const RateOptions& options) {
  CounterRates out;
  out.scrapes = scrapes.size();
  Diagnostics errors;
  // Grouped by a string key in a hash map, then visited in SeriesKey order (deterministic output).
  std::unordered_map<std::string, std::vector<const CounterSample*>> grouped;
  std::size_t total = 0;
  for (const Scrape& s : scrapes) total += s.samples.size();
  grouped.reserve(total / std::max<std::size_t>(1, scrapes.size()) + 1);
  std::string k;
  for (const Scrape& s : scrapes) {
    for (const Diagnostic& w : s.warnings) out.warnings.push_back(w);
    for (const CounterSample& c : s.samples) {
      k = c.instance;
      k += '\x1f';
      k += c.device;
      k += '\x1f';
      k += static_cast<char>('0' + static_cast<int>(c.kind));
      k += c.transmit ? 't' : 'r';
      grouped[k].push_back(&c);
    }
  }
  std::vector<std::pair<SeriesKey, std::vector<const CounterSample*>*>> by_series;
  by_series.reserve(grouped.size());
  for (auto& [unused, v] : grouped) {
    const CounterSample& c = *v.front();
    by_series.emplace_back(SeriesKey{c.instance, c.device, c.kind, !c.transmit}, &v);
  }
  std::sort(by_series.begin(), by_series.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [key, samples_ptr] : by_series) {
    std::vector<const CounterSample*>& samples = *samples_ptr;
    const SeriesKey named{std::get<0>(key), std::get<1>(key), std::get<2>(key), !std::get<3>(key)};
    std::stable_sort(samples.begin(), samples.end(),
                     [](const CounterSample* a, const CounterSample* b) { return a->time_ms < b->time_ms; });
    // Equal times: one sample if the counts agree, an error otherwise.
    std::vector<const CounterSample*> unique;
    bool bad = false;
    for (const CounterSample* c : samples) {
      if (!unique.empty() && unique.back()->time_ms == c->time_ms) {
        if (unique.back()->count != c->count) {
          errors.push_back(Diagnostic{c->where, "timestamp",
                                      series_text(named) + ": a second sample at the same time " +
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
                                        series_text(named) + " is in only one scrape of " +
                                            std::to_string(scrapes.size()) + " (no time to measure a rate over)",
                                        Severity::kWarning});
      continue;
    }
    if (unique.size() < scrapes.size()) {
      out.warnings.push_back(Diagnostic{unique.front()->where, "series",
                                        series_text(named) + " is missing from " +
                                            std::to_string(scrapes.size() - unique.size()) + " of " +
                                            std::to_string(scrapes.size()) + " scrapes; rate from the others",
                                        Severity::kWarning});
    }
    SeriesRate r;
    r.instance = std::get<0>(named);
    r.device = std::get<1>(named);
    r.kind = std::get<2>(named);
    r.transmit = std::get<3>(named);
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
                                          series_text(named) + ": counter wrapped at 2^" +
                                              (a.width == CounterWidth::k32 ? "32" : "64") + " since " + a.where.file +
                                              ":" + std::to_string(a.where.line),
                                          Severity::kWarning});
      } else {
        counts += static_cast<double>(b.count);
        ++r.resets;
        out.warnings.push_back(Diagnostic{b.where, "series",
                                          series_text(named) + ": counter went back from " + std::to_string(a.count) +
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
