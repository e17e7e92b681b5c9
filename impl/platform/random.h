// Seam: randomness. In the simulator every stream is derived from the run's root seed.
#pragma once

#include <cstdint>

namespace spotcheck::platform {

class Random {
 public:
  virtual ~Random() = default;
  virtual std::uint64_t next_u64() = 0;
  // Uniform in [0, bound). bound must be positive.
  std::uint64_t below(std::uint64_t bound);
  // Uniform in [lo, hi].
  std::int64_t between(std::int64_t lo, std::int64_t hi);
  bool chance(double probability);
};

}  // namespace spotcheck::platform
