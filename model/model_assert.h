// Always-on assertions for the reference model (a broken model invariant is a test-harness bug).
#pragma once

#include <cstdio>
#include <cstdlib>

#define MODEL_ASSERT(condition)                                                                   \
  do {                                                                                            \
    if (!(condition)) [[unlikely]] {                                                              \
      std::fprintf(stderr, "%s:%d: model invariant failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                               \
    }                                                                                             \
  } while (false)
