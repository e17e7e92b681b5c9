// Always-on invariant checks for the simulator (they stay on in release builds, as TigerBeetle's
// do: a simulator that runs with its assertions off proves nothing).
#pragma once

namespace spotcheck::sim::detail {

[[noreturn]] void assertion_failed(const char* condition, const char* file, int line);

}  // namespace spotcheck::sim::detail

#define SIM_ASSERT(condition)                                                       \
  do {                                                                              \
    if (!(condition)) [[unlikely]] {                                                \
      ::spotcheck::sim::detail::assertion_failed(#condition, __FILE__, __LINE__);  \
    }                                                                               \
  } while (false)
