#include "core/memory_policy.h"

#include <malloc.h>

namespace ct {

void keep_freed_memory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);  // glibc reads it as the largest size: never trim
}

}  // namespace ct
