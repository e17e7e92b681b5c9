#include "impl/store/memory/counter_codec.h"

#include "impl/check/check.h"

namespace spotcheck::store::memory {

std::optional<std::int64_t> bounded_add(std::int64_t current, std::int64_t delta, std::int64_t min,
                                        std::int64_t max) {
  SPOTCHECK_ASSERT_ABORT(min <= max);
  std::int64_t sum = 0;
  if (__builtin_add_overflow(current, delta, &sum)) {
    return std::nullopt;
  }
  if (sum < min || sum > max) {
    return std::nullopt;
  }
  return sum;
}

}  // namespace spotcheck::store::memory
