#include "analysis/operation_figures.h"

namespace ct {

double mean_iteration_seconds(const OperationResult& op) {
  double sum = 0;
  int n = 0;
  for (const IterationSpan& it : op.iterations) {
    if (it.end.value() < 0 || it.start.value() < 0) continue;
    sum += to_seconds(it.end - it.start);
    ++n;
  }
  return n == 0 ? -1.0 : sum / n;
}

std::optional<double> busbw_bytes_per_second(const OperationResult& op) {
  const double t = mean_iteration_seconds(op);
  if (!op.complete || op.steps < op.total_steps || t <= 0) return std::nullopt;
  return static_cast<double>(op.bytes.value()) / t * op.bus_factor;
}

}  // namespace ct
