// A test that plants a bug (impl/planted/planted_bugs.h) starts with SPOTCHECK_NEEDS_PLANTED_BUGS():
// in a build with SPOTCHECK_PLANTED_BUGS=OFF it is skipped, with the reason, instead of passing
// without the bug planted.
#pragma once

#include <gtest/gtest.h>

#include "impl/planted/planted_bugs.h"

#define SPOTCHECK_NEEDS_PLANTED_BUGS()                                                          \
  if (!::spotcheck::planted::kPlantedBugsCompiled) {                                            \
    GTEST_SKIP() << "built with SPOTCHECK_PLANTED_BUGS=OFF: the planted bugs are not compiled"; \
  }
