#include "sim/assert.h"

#include <cstdio>
#include <cstdlib>

namespace spotcheck::sim::detail {

void assertion_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "sim assertion failed: %s (%s:%d)\n", condition, file, line);
  std::fflush(stderr);
  std::abort();
}

}  // namespace spotcheck::sim::detail
