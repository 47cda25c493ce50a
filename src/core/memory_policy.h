// How the process takes memory from the kernel and gives it back (glibc's malloc), set once at the
// start by the CLI and by the benchmarks that time a command's work, so both measure one policy.
#pragma once

namespace ct {

// Every block comes from the heap (none mapped on its own) and the heap's free top is kept: a
// block freed by one stage of a run is reused by the next stage's allocations without the kernel
// zeroing and mapping its pages again. glibc's default maps each block over 32 MiB afresh and
// unmaps it when freed, so a run whose stages each hold a large array (routes, then the engine,
// then the records) faulted in the same gigabytes twice: at 131,072 GPUs 1.16 M page faults, half
// of them on memory the process had already had (docs/performance.md, eighth session). The cost
// is a peak that holds freed memory until the process ends, which a command does soon after.
// A refused setting only leaves glibc's defaults: nothing to report.
void keep_freed_memory();

}  // namespace ct
