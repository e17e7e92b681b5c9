// The memory provider's counter arithmetic. The stored form of a counter (canonical decimal
// ASCII) is the SPI's: impl/store/spi/counter_text.h.
#pragma once

#include <cstdint>
#include <optional>

#include "impl/store/spi/counter_text.h"

namespace spotcheck::store::memory {

// The value after an Increment, or nullopt when it would leave [min, max] or overflow int64.
std::optional<std::int64_t> bounded_add(std::int64_t current, std::int64_t delta, std::int64_t min,
                                        std::int64_t max);

}  // namespace spotcheck::store::memory
