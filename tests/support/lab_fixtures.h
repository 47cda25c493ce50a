// What the tests that run the lab (tests/linux) share: a guard that takes the lab's namespaces down
// when the test ends, passed or failed (lab_down is idempotent), and their UDP elephant between a
// pod-0 host and a pod-1 host of the 4-ary fat tree. Header only.
#pragma once

#include <string>
#include <utility>

#include "lab/lab_runner.h"
#include "routing/port_address.h"
#include "topology/topology.h"

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

// Elephant i of the lab tests: UDP from host i % 4 to host 4 + (i + 1) % 4 (first NIC, first
// port each), to the discard port 9; the source port is the caller's to choose.
inline LabFlow lab_elephant(const Topology& t, int i) {
  LabFlow f;
  f.src = t.port_of(HostId(i % 4), 0, 0);
  f.dst = t.port_of(HostId(4 + (i + 1) % 4), 0, 0);
  f.key.src_ip = port_address(t, f.src);
  f.key.dst_ip = port_address(t, f.dst);
  f.key.protocol = kIpProtoUdp;
  f.key.dst_port = 9;  // discard
  return f;
}

}  // namespace ct::test
