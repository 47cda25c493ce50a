// clustertwin-sweep-mpi SWEEP.yaml [the options of clustertwin sweep]: the sweep spread over MPI
// ranks; what `mpirun -np N clustertwin sweep SWEEP.yaml` runs (cli/sweep_command.h).
//
// Rank 0 coordinates (cli/sweep_mpi_coordinator.h) and writes the outputs through the same code as
// the threaded command; the other ranks ask it for work items (a point, or a trial slice of one)
// and send back their results. A point's figures depend on its seeds alone, and a split point's
// trials on (seed, trial) alone, gathered in trial order, so the bytes do not depend on N or on
// which rank ran what. A rank that dies takes the job down (Open MPI's default); the points
// already journaled are not computed again by the next run.
#include <mpi.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>

#include "cli/sweep_command.h"
#include "cli/sweep_mpi_coordinator.h"
#include "io/loaders.h"

namespace ct::cli {
namespace {

void send_result(std::int64_t index, const std::string& text) {
  std::string message(sizeof index, '\0');
  std::memcpy(message.data(), &index, sizeof index);
  message += text;
  MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
}

void worker(const SweepFile& sweep, const Catalog& catalog) {
  const auto points = sweep_points(sweep);
  send_result(-1, "");
  while (true) {
    std::int64_t work[4] = {-1, 0, 0, 0};  // item, point, first trial, trials (0: the whole point)
    MPI_Recv(work, 4, MPI_INT64_T, 0, kTagWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (work[0] < 0) return;
    const SweepPoint& point = points[static_cast<std::size_t>(work[1])];
    const TrialSlice slice{static_cast<std::uint32_t>(work[2]), static_cast<std::uint32_t>(work[3])};
    send_result(work[0], slice.count == 0 ? encode_point(sweep, point, evaluate_point(sweep, catalog, point))
                                          : evaluate_slice(sweep, catalog, point, slice));
  }
}

int run(int argc, char** argv, int rank, int ranks) {
  CLI::App app{"clustertwin sweep under MPI", "clustertwin-sweep-mpi"};
  SweepCommandOptions o;
  std::string catalog_dir = default_catalog_dir();
  add_sweep_options(app, o);
  app.add_option("--catalog", catalog_dir, "Hardware catalog folder");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rank == 0 ? app.exit(e) : kExitUsage;
  }
  // Every rank reads the same files, so all fail alike; rank 0 alone says why.
  auto catalog = load_catalog(catalog_dir);
  auto sweep = catalog ? load_sweep(o.sweep_path, catalog.value()) : Result<SweepFile>(catalog.errors());
  if (!sweep || !catalog) {
    if (rank == 0) report_errors(sweep.errors());
    return kExitInputError;
  }
  if (rank != 0) {
    worker(sweep.value(), catalog.value());
    return kExitOk;
  }
  if (!o.progress.quiet) std::cerr << "sweep: " << ranks << " MPI rank(s)\n";
  o.command_line = mpi_command_line(argc, argv, ranks);
  auto result = Coordinator(sweep.value(), catalog.value(), o).run(ranks);
  if (!result) return report_errors(result.errors());
  return write_sweep(o, sweep.value(), result.value());
}

}  // namespace
}  // namespace ct::cli

int main(int argc, char** argv) {
  // A rank outlives nothing that started it: when mpirun (or its daemon) is killed, the ranks are
  // too, instead of computing on as orphans whose results no one gathers (Linux's parent-death
  // signal; the journal keeps what rank 0 had finished).
  const pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) return 1;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int code = ct::cli::run(argc, argv, rank, ranks);
  // A rank that stops early (bad input, found alike by all) must not leave the others waiting.
  int worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return rank == 0 ? code : worst == 0 ? 0 : worst;
}
