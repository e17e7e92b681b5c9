// Shared by the libFuzzer targets: an abort that libFuzzer reports as a crash.
#pragma once

#include <cstdlib>

namespace spotcheck::fuzz {

inline void require(bool condition) {
  if (!condition) {
    std::abort();
  }
}

}  // namespace spotcheck::fuzz
