// A Fabric over a tiny hand-built topology (routing/fabric_fixtures.h) for model tests that call
// the library's entry points (simulate(fabric, scenario), compile_workload): fabric/fabric.h
// fabric_over with the node model of examples/lab-32.yaml (HGX H100) whose NVLink figure is
// replaced by `nvlink` (bytes/s per GPU, both directions added; nullopt: no NVLink figure).
// Header only, for tests (the shipped files are found through support/test_paths.h).
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "fabric/fabric.h"
#include "io/loaders.h"
#include "spec/spec_parser.h"
#include "spec/validate.h"
#include "support/test_paths.h"
#include "traffic/scenario.h"

namespace ct::fixtures {

// A shift permutation: GPU h sends `bytes` to GPU (h + shift) mod n, one transfer "x<h>" each.
inline Scenario shift_permutation(std::uint32_t n, std::uint32_t shift, Bytes bytes) {
  Scenario s;
  for (std::uint32_t h = 0; h < n; ++h) {
    TransferSpec x;
    x.name = "x" + std::to_string(h);
    x.src.gpu = h;
    x.dst.gpu = (h + shift) % n;
    x.bytes = bytes;
    s.transfers.push_back(x);
  }
  return s;
}

inline const Catalog& test_catalog() {
  static const Catalog catalog = load_catalog(ct::testing_support::source_dir() + "/catalog").value();
  return catalog;
}

// The text of a file shipped in the source tree (`relative` to it; empty when there is none).
inline std::string source_text(const std::string& relative) {
  std::ifstream in(ct::testing_support::source_dir() + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A spec shipped in the source tree (`relative` to it), validated against the shipped catalog.
inline ValidSpec example_spec(const std::string& relative) {
  return validate_reading(read_spec(relative, source_text(relative)), test_catalog()).value();
}

inline const ValidSpec& lab_spec() {
  static const ValidSpec spec = example_spec("examples/lab-32.yaml");
  return spec;
}

// The fabric of a spec shipped in the source tree (`relative` to it), built on every call.
inline Fabric example_fabric(const std::string& relative) { return build_fabric(example_spec(relative), test_catalog()).value(); }

// The fabric of examples/lab/fat-tree-4.yaml (the lab's 4-ary fat tree), built once per test binary.
inline const Fabric& lab_fat_tree_4() {
  static const Fabric fabric = example_fabric("examples/lab/fat-tree-4.yaml");
  return fabric;
}

inline Fabric fixture_fabric(Topology topology, std::optional<double> nvlink = std::nullopt, EcmpConfig ecmp = {}) {
  ValidSpec spec = lab_spec();
  spec.node.nvlink_bytes_per_s = nvlink;
  return fabric_over(spec, test_catalog(), std::move(topology), std::move(ecmp));
}

}  // namespace ct::fixtures
