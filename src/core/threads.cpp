#include "core/threads.h"

#include <system_error>
#include <thread>
#include <vector>

namespace ct {

void run_on_threads(unsigned n, const std::function<void(unsigned)>& body) {
  std::vector<std::thread> pool;
  unsigned started = 1;
  for (; started < n; ++started) {
    try {
      pool.emplace_back(body, started);
    } catch (const std::system_error&) {
      break;
    }
  }
  if (n > 0) body(0);
  for (unsigned k = started; k < n; ++k) body(k);
  for (std::thread& t : pool) t.join();
}

}  // namespace ct
