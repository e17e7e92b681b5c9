#pragma once

#include <cstddef>

namespace spotcheck::sim {

#if defined(SPOTCHECK_SANITIZE)
// ASan frames are several times larger.
inline constexpr std::size_t kDefaultStackSizeBytes = 512 * 1024;
#else
inline constexpr std::size_t kDefaultStackSizeBytes = 128 * 1024;
#endif

}  // namespace spotcheck::sim
