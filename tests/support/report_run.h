// A simulation run kept together with what the report writers read of it (report/simulate_report.h
// and report/simulate_html.h take a SimulateReportInput that refers to the topology and the result,
// so the three live in one place). Header only, for tests.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "analysis/straggler.h"
#include "fabric/fabric.h"
#include "report/simulate_report.h"
#include "sim/simulation.h"

namespace ct::fixtures {

struct ReportRun {
  Topology topology;
  std::optional<Fabric> fabric;
  SimulationResult result;
  WorkerAccount workers;
  std::optional<SimulateReportInput> in;

  // Simulates `s` on `fabric` with `o`; keeps the result, its workers' account and the report's
  // input titled `title` (top 10 rows). A failed run fails the calling test.
  void simulate_and_keep(const Scenario& s, const SimulationOptions& o, std::string title) {
    auto run = simulate(*fabric, s, o);
    ASSERT_TRUE(run.ok()) << format_diagnostics(run.errors());
    result = std::move(run).value();
    workers = account_workers(result);
    in.emplace(SimulateReportInput{topology, fabric->names(), result, workers, std::move(title), 10});
  }
};

}  // namespace ct::fixtures
