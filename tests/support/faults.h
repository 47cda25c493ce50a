// Faults a test writes by hand, as a scenario's `faults:` entry would give them.
#pragma once

#include <string>
#include <utility>

#include "traffic/scenario.h"

namespace ct::testing_support {

// `link` degraded to `fraction` of its capacity at `at`; `what`: the selector as a file would name it.
inline FaultSpec degrade(LinkId link, double fraction, TimePs at = TimePs(0), std::string what = {}) {
  FaultSpec f;
  f.kind = FaultKind::kDegrade;
  f.what = std::move(what);
  f.links = {link};
  f.at = at;
  f.fraction = fraction;
  return f;
}

}  // namespace ct::testing_support
