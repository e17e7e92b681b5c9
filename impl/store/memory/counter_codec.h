// Counters are stored as the canonical decimal ASCII of a signed 64-bit integer ("0", "-8",
// "9223372036854775806"): readable with read(), and what a Redis INCRBY would keep.
#pragma once

#include <cstdint>
#include <optional>

#include "impl/store/spi/types.h"

namespace spotcheck::store::memory {

Bytes format_counter(std::int64_t value);
// nullopt unless `bytes` is exactly format_counter(x) for some x.
std::optional<std::int64_t> parse_counter(const Bytes& bytes);

// The value after an Increment, or nullopt when it would leave [min, max] or overflow int64.
std::optional<std::int64_t> bounded_add(std::int64_t current, std::int64_t delta, std::int64_t min,
                                        std::int64_t max);

}  // namespace spotcheck::store::memory
