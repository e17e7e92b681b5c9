// Always-on invariant assertions for the Location runtime.
//
// `assert` vanishes under NDEBUG (RelWithDebInfo campaigns); a protocol invariant must not. A
// failed LOCATION_ASSERT prints the condition and location and aborts the process, so the
// simulator records a crash with the seed that reached it.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace spotcheck::location::detail {

[[noreturn]] inline void assertion_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "location invariant failed: %s (%s:%d)\n", condition, file, line);
  std::abort();
}

}  // namespace spotcheck::location::detail

#define LOCATION_ASSERT(condition)                                                      \
  do {                                                                                  \
    if (!(condition)) {                                                                 \
      ::spotcheck::location::detail::assertion_failed(#condition, __FILE__, __LINE__); \
    }                                                                                   \
  } while (false)
