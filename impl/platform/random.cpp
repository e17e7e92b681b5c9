#include "impl/platform/random.h"

#include "impl/check/check.h"

namespace spotcheck::platform {

std::uint64_t Random::below(std::uint64_t bound) {
  SPOTCHECK_ASSERT(bound > 0);
  // Lemire's multiply-shift with rejection: unbiased and deterministic.
  std::uint64_t x = next_u64();
  __uint128_t m = static_cast<__uint128_t>(x) * bound;
  auto low = static_cast<std::uint64_t>(m);
  if (low < bound) {
    const std::uint64_t threshold = -bound % bound;
    while (low < threshold) {
      x = next_u64();
      m = static_cast<__uint128_t>(x) * bound;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

std::int64_t Random::between(std::int64_t lo, std::int64_t hi) {
  SPOTCHECK_ASSERT(lo <= hi);
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
  if (span == UINT64_MAX) {
    return static_cast<std::int64_t>(next_u64());
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + below(span + 1));
}

bool Random::chance(double probability) {
  if (probability <= 0.0) {
    return false;
  }
  if (probability >= 1.0) {
    return true;
  }
  // 53 random bits as a double in [0, 1).
  const double unit = static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
  return unit < probability;
}

}  // namespace spotcheck::platform
