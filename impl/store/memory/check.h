// Always-on invariant checks for the in-memory store (they stay on in release builds: a broken
// store invariant must stop a simulation run, not silently corrupt it).
#pragma once

#include <cstdio>
#include <cstdlib>

#define MEMSTORE_ASSERT(condition)                                                              \
  do {                                                                                          \
    if (!(condition)) [[unlikely]] {                                                            \
      std::fprintf(stderr, "%s:%d: memory store invariant failed: %s\n", __FILE__, __LINE__,   \
                   #condition);                                                                 \
      std::abort();                                                                             \
    }                                                                                           \
  } while (false)
