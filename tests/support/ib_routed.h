// A fixture's subnet parsed and routed, for tests that start from an ibnetdiscover text: each step
// expected to succeed (a failure is a test failure naming the engine), the value returned.
#pragma once

#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "ib/ib_routing.h"
#include "ib/ibnetdiscover.h"
#include "ib/subnet_manager.h"

namespace ct::fixtures {

inline IbFabric parsed(const char* text, const std::string& file) {
  auto f = parse_ibnetdiscover(text, file);
  EXPECT_TRUE(f.ok()) << file;
  return std::move(f).value();
}

inline IbRouting routed(const IbFabric& f, IbEngine engine) {
  IbRoutingOptions options;
  options.engine = engine;
  auto r = route_fabric(f, options);
  EXPECT_TRUE(r.ok()) << to_string(engine);
  return std::move(r).value();
}

}  // namespace ct::fixtures
