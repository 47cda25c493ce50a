// The catalog shipped in catalog/, loaded once per test binary (header only, tests only). A
// catalog that does not load fails the test that asked for it, with the diagnostics, and yields an
// empty catalog. The catalog is found through support/test_paths.h.
#pragma once

#include <gtest/gtest.h>

#include <utility>

#include "io/loaders.h"
#include "support/test_paths.h"

namespace ct::testing_support {

inline const Catalog& real_catalog() {
  static const Catalog catalog = [] {
    auto c = load_catalog(ct::testing_support::source_dir() + "/catalog");
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : format_diagnostics(c.errors()));
    return c.ok() ? std::move(c).value() : Catalog{};
  }();
  return catalog;
}

}  // namespace ct::testing_support
