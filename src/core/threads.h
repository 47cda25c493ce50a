// Running indexed work on threads, and reporting its progress.
//
// run_on_threads(n, body): body(k) once for each k = 0 .. n-1. Up to max(64, 4 x hardware threads)
// indices each get their own std::thread (index 0 the caller's); beyond that, indices share them
// round-robin, one body after another, so no more bodies hold their memory at once. A thread the
// system refuses to start (std::system_error, EAGAIN: out of threads or of address space, e.g.
// --threads 1000 under `ulimit -v`; or std::bad_alloc) has its indices run on the caller's thread
// instead, after its own: the same work is done, and a body whose results are stored by index
// gives the same bytes whatever was started. Never throws for a refused thread.
//
// Progress: the library's long loops take an optional ProgressCallback (done, total) in their
// options; they call it from the caller's thread only, often (every few trials), and leave rate
// limiting and display to the caller (cli/progress.h).
#pragma once

#include <cstdint>
#include <functional>

namespace ct {

void run_on_threads(unsigned n, const std::function<void(unsigned)>& body);

using ProgressCallback = std::function<void(std::uint64_t done, std::uint64_t total)>;

}  // namespace ct
