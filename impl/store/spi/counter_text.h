// Counters — the keys a store::Increment changes — hold the canonical decimal ASCII of a signed
// 64-bit integer ("0", "-8", "9223372036854775806"): readable with read(), and what Redis INCRBY
// keeps. One codec for the providers, the protocol's readers and the reference model.
#pragma once

#include <cstdint>
#include <optional>

#include "impl/store/spi/types.h"

namespace spotcheck::store {

Bytes format_counter(std::int64_t value);
// nullopt unless `bytes` is exactly format_counter(x) for some x ("+1", "007", "-0", " 1" are not).
std::optional<std::int64_t> parse_counter(const Bytes& bytes);

}  // namespace spotcheck::store
