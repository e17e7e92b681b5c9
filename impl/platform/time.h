// Time as the protocol sees it: a signed count of microseconds on a monotonic clock.
// The simulator's clock is virtual; the real-time platform's is std::chrono::steady_clock.
#pragma once

#include <cstdint>
#include <limits>

namespace spotcheck::platform {

using TimeUs = std::int64_t;

inline constexpr TimeUs kMicrosPerMilli = 1'000;
inline constexpr TimeUs kMicrosPerSecond = 1'000'000;
// A deadline that never arrives.
inline constexpr TimeUs kNever = std::numeric_limits<TimeUs>::max();

constexpr TimeUs millis(std::int64_t ms) { return ms * kMicrosPerMilli; }
constexpr TimeUs seconds(std::int64_t s) { return s * kMicrosPerSecond; }

}  // namespace spotcheck::platform
