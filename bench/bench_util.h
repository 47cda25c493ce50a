// What the benchmark binaries share (header only, benchmarks only): the bundled catalog, a spec
// from YAML text, the B300 clusters they measure, wall time and the process's peak resident set.
// A benchmark's input must be valid: on a diagnostic they print it and abort, since a benchmark of
// the wrong thing is no figure.
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"

namespace ct::bench {

// The catalog under catalog/ (default_catalog_dir()), loaded once.
inline const Catalog& catalog() {
  static const Catalog c = [] {
    auto loaded = load_catalog(default_catalog_dir());
    if (!loaded) {
      std::fputs(format_diagnostics(loaded.errors()).c_str(), stderr);
      std::abort();
    }
    return std::move(loaded).value();
  }();
  return c;
}

// Parses and validates a spec given as YAML text against catalog().
inline ValidSpec valid_spec(const std::string& yaml) {
  auto spec = parse_spec("bench.yaml", yaml);
  if (!spec) {
    std::fputs(format_diagnostics(spec.errors()).c_str(), stderr);
    std::abort();
  }
  auto valid = validate(spec.value(), catalog());
  if (!valid) {
    std::fputs(format_diagnostics(valid.errors()).c_str(), stderr);
    std::abort();
  }
  return std::move(valid).value();
}

// `nodes` HGX B300 (8 GPUs each) on a two-plane rail-optimized SN5600 fabric at 400G, radix 128,
// non-blocking, with `tiers` tiers: 1,024 nodes in 2 tiers is the fabric of
// examples/b300-dual-plane.yaml; 4,096 nodes in 3 tiers are 32,768 GPUs (per plane 512 leaves,
// 8 pods x 64 spines, 256 cores).
inline std::string b300_yaml(long long nodes, int tiers) {
  return fmt::format(R"(
name: bench-b300-{}
nodes: {{model: hgx-b300, count: {}}}
backend:
  topology: rail-optimized
  planes: 2
  tiers: {}
  switch: sn5600
  port_speed: 400G
  oversubscription: {}
  cable_length_m: {{leaf: 30, spine: 100, core: 500}}
)",
                     nodes, nodes, tiers, tiers == 3 ? "[1, 1]" : "[1]");
}

// The process's peak resident set size so far, MiB (getrusage ru_maxrss, KiB on Linux).
inline double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace ct::bench
