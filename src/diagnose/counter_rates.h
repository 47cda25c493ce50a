// Rates from two or more scrapes of byte counters, per series (instance, interface, direction,
// kind), as Prometheus' rate() defines them but with the wraps a switch's SNMP counters have:
//
//   samples of a series sorted by time t_0 < t_1 < ... < t_m (m >= 1);
//   delta_i = v_i - v_{i-1}                     when v_i >= v_{i-1};
//           = 2^w - v_{i-1} + v_i               a wrap, when v_i < v_{i-1} and the counter is w bits
//                                               wide (IF-MIB Counter32: w = 32) or a 64-bit counter
//                                               was past 2^63, and the wrapped delta fits in
//                                               max_bytes_per_second x (t_i - t_{i-1}) (no bound: taken);
//           = v_i                               otherwise: a reset (device or driver restart), the
//                                               counter restarted from zero (Prometheus' rule);
//   rate = unit x sum(delta_i) / (t_m - t_0).
// Each series also keeps unit x (delta_1 + ... + delta_i) at t_i (its timeline), for the rates over
// shorter windows that the alert rules are evaluated on (alert_rules.h).
// A rate is never negative. Samples at the same time with the same value are one sample; with
// different values they are an error (two scrapes claim different counts at one instant), as is a
// series sample dropped by the reader. A series seen in one scrape only has no rate: it is
// reported as missing, with where it was seen; one missing from some scrapes of its own instance
// (a scrape holding a sample of that instance) is warned about, a scrape of other hosts only is no
// gap. The series key holds the instance, so two hosts' series are never one. Series are returned sorted by (instance, device,
// kind, direction), so output does not depend on the order of the files.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "diagnose/counter_reader.h"

namespace ct {

// A series' bytes counted since its first sample (wraps and resets resolved), at a sample time.
struct TimedBytes {
  std::int64_t time_ms = 0;
  double bytes = 0;
};

struct SeriesRate {
  std::string instance;
  std::string device;
  bool transmit = true;
  CounterKind kind = CounterKind::kNetdev;
  double bytes_per_second = 0;
  double bytes = 0;
  double seconds = 0;
  std::uint32_t samples = 0;
  std::uint32_t wraps = 0;
  std::uint32_t resets = 0;
  SourceLocation where;  // its first sample
  std::vector<TimedBytes> timeline;  // one entry per distinct sample time, from 0 bytes
};

struct CounterRates {
  std::vector<SeriesRate> series;
  std::size_t scrapes = 0;
  Diagnostics warnings;  // missing series, wraps and resets seen, dropped samples
};

struct RateOptions {
  double max_bytes_per_second = 0;  // the fastest link: bounds a plausible wrap (0: no bound)
};

Result<CounterRates> compute_rates(std::span<const Scrape> scrapes, const RateOptions& options);

}  // namespace ct
