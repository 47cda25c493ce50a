// Takes a lab's namespaces down when the test that built them ends, passed or failed (lab_down is
// idempotent). Header only, for the tests that run the lab (tests/linux).
#pragma once

#include <string>
#include <utility>

#include "lab/lab_runner.h"

namespace ct::test {

class LabGuard {
 public:
  explicit LabGuard(std::string prefix) : prefix_(std::move(prefix)) {}
  ~LabGuard() { (void)lab_down(prefix_); }
  LabGuard(const LabGuard&) = delete;
  LabGuard& operator=(const LabGuard&) = delete;

 private:
  std::string prefix_;
};

}  // namespace ct::test
