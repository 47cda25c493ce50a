// The sweep command's options and outputs, shared by `clustertwin sweep` and the MPI runner
// `clustertwin-sweep-mpi` (sweep_mpi_main.cpp), so that both take the same command line and write
// the same bytes. `clustertwin sweep` started by mpirun (Open MPI sets OMPI_COMM_WORLD_SIZE) execs
// the MPI runner beside it with its arguments: only that runner links MPI, so no other command
// pays for it (docs/models/sweep.md).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/command.h"
#include "sweep/sweep_run.h"

namespace ct::cli {

struct SweepCommandOptions {
  std::string sweep_path;
  std::string output;
  std::string csv;
  std::string jsonl;
  std::string html;
  std::string command_line;  // shown on the --html page
  std::string checkpoint;
  bool json = false;
  unsigned threads = 1;
  ProgressFlags progress;
};

void add_sweep_options(CLI::App& app, SweepCommandOptions& o);
// "2 running, 0 failed, about 30 s left"
std::string sweep_progress_detail(const SweepProgress& p);
// "mpirun -np 3 clustertwin sweep SWEEP.yaml ...": the MPI runner's arguments as the user gave them,
// less those that cannot change the result (result_arguments in cli/command.h).
std::string mpi_command_line(int argc, char** argv, int ranks);
// The sweep file read and checked, or exit 1 with its diagnostics printed.
Result<SweepFile> load_sweep(const std::string& path, const Catalog& catalog);
// Rows, summary and front, committed together; prints how many points were computed when resumed.
int write_sweep(const SweepCommandOptions& o, const SweepFile& sweep, const SweepRun& run);

}  // namespace ct::cli
