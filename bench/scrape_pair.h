// The counters of a fabric under load, as `clustertwin diagnose` reads them (benchmarks only): two
// node_exporter scrapes 10 s apart with a transmit counter at both ends of every backend link
// (instance = the vertex's name, device = "l<link>"), and the port map that names each
// interface's vertex and peer. Every link carries about 40 Gb/s (a seeded +-2 % per series, so
// equal counts do not make the work easier than a real scrape), except the first uplink of every
// 64th leaf, which is idle: the verdict path runs too. The same seed gives the same bytes.
// Used by BM_DiagnoseB300_32768 (bench_diagnose.cpp) and by gen_scrape_pair, the files of
// bench/diagnose_32k.sh.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "fabric/fabric.h"

namespace ct::bench {

struct ScrapePair {
  std::string before;  // Prometheus text, t = 0
  std::string after;   // Prometheus text, t = 10 s
  std::string map;     // instance,device,vertex,peer,cable
  std::size_t series = 0;
};

// splitmix64: a fixed, portable stream from the seed (std::*_distribution is not portable).
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline ScrapePair scrape_pair(const Fabric& f, std::uint64_t seed) {
  const Topology& t = f.topology();
  ScrapePair out;
  out.before.reserve(std::size_t{100} << 20);
  out.after.reserve(std::size_t{100} << 20);
  out.map.reserve(std::size_t{40} << 20);
  for (std::uint32_t l = 0; l < t.link_count(); ++l) {
    if (t.network[t.link_a[l].value()] != Network::kBackend) continue;
    for (const VertexId end : {t.link_a[l], t.link_b[l]}) {
      const VertexId other = t.other_end(LinkId(l), end);
      const std::string instance = t.vertex_name(end);
      const bool idle = t.tier[end.value()] == 1 && t.tier[other.value()] == 2 && t.index[end.value()] % 64 == 0 &&
                        t.neighbors(end).back().link == LinkId(l);
      // 50 GB in 10 s = 40 Gb/s, +-2 %.
      const std::uint64_t noise = mix64(seed ^ (std::uint64_t{l} << 1 | (end == t.link_b[l]))) % 2'000'000'001ull;
      const std::uint64_t bytes = idle ? 0 : 49'000'000'000ull + noise;
      const std::uint64_t start = 1000 + mix64(seed + l) % 1'000'000'000'000ull;
      fmt::format_to(std::back_inserter(out.before),
                     "node_network_transmit_bytes_total{{device=\"l{}\",instance=\"{}\"}} {} 0\n", l, instance, start);
      fmt::format_to(std::back_inserter(out.after),
                     "node_network_transmit_bytes_total{{device=\"l{}\",instance=\"{}\"}} {} 10000\n", l, instance,
                     start + bytes);
      fmt::format_to(std::back_inserter(out.map), "{0},l{1},{0},{2},{3}\n", instance, l, t.vertex_name(other), 0);
      ++out.series;
    }
  }
  return out;
}

}  // namespace ct::bench
