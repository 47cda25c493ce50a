#include "core/threads.h"

#include <algorithm>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace ct {

void run_on_threads(unsigned n, const std::function<void(unsigned)>& body) {
  if (n == 0) return;
  // Indices beyond the thread cap share the threads, each running its indices one after another, so
  // that at most `cap` bodies hold their working memory at once: a thousand threads on a few cores
  // only multiply the memory (which ran out under `ulimit -v` before the threads did).
  const unsigned cap = std::max(64U, 4 * std::thread::hardware_concurrency());
  const unsigned lanes = std::min(n, cap);
  auto lane = [&body, n, lanes](unsigned j) {
    for (unsigned k = j; k < n; k += lanes) body(k);
  };
  std::vector<std::thread> pool;
  pool.reserve(lanes - 1);
  unsigned started = 1;
  for (; started < lanes; ++started) {
    try {
      pool.emplace_back(lane, started);
    } catch (const std::system_error&) {  // EAGAIN: no thread or stack to be had
      break;
    } catch (const std::bad_alloc&) {  // the thread's own state could not be allocated
      break;
    }
  }
  lane(0);
  for (unsigned j = started; j < lanes; ++j) lane(j);
  for (std::thread& t : pool) t.join();
}

}  // namespace ct
