// Compiled with NDEBUG defined (as a plain CMake Release build compiles the code under test):
// SPOTCHECK_ASSERT must still fire here (assertion_handler_test.cpp AssertionsStayOnUnderNdebug).
#ifndef NDEBUG
#define NDEBUG 1
#endif

#include "impl/check/check.h"

namespace spotcheck::location::testing {

int ndebug_probe(int even) {
  SPOTCHECK_ASSERT(even % 2 == 0);
  return even / 2;
}

}  // namespace spotcheck::location::testing
