#include "impl/location/lease/admission_deadline.h"

#include <limits>

#include "impl/check/check.h"

namespace spotcheck::location {

namespace {

TimeUs saturate(__int128 value) {
  constexpr __int128 lo = std::numeric_limits<TimeUs>::min();
  constexpr __int128 hi = std::numeric_limits<TimeUs>::max();
  if (value < lo) {
    return std::numeric_limits<TimeUs>::min();
  }
  if (value > hi) {
    return std::numeric_limits<TimeUs>::max();
  }
  return static_cast<TimeUs>(value);
}

}  // namespace

TimeUs admission_deadline_us(const LeaseObservation& observation, TimeUs fencing_margin_us) {
  SPOTCHECK_ASSERT(observation.local_after_us >= observation.local_before_us);
  SPOTCHECK_ASSERT(fencing_margin_us > 0);
  const __int128 remaining_us =
      (static_cast<__int128>(observation.expires_at_ms) - observation.store_now_ms) *
      platform::kMicrosPerMilli;
  const TimeUs deadline_us =
      saturate(static_cast<__int128>(observation.local_before_us) + remaining_us - fencing_margin_us);
  // The deadline never lies a full margin or more past the lease end as seen from the send.
  SPOTCHECK_ASSERT(static_cast<__int128>(deadline_us) <=
                  static_cast<__int128>(observation.local_before_us) + remaining_us);
  return deadline_us;
}

store::StoreNowMs estimated_store_now_ms(const LeaseObservation& observation, TimeUs local_now_us) {
  SPOTCHECK_ASSERT(local_now_us >= observation.local_before_us);
  const TimeUs elapsed_us = local_now_us - observation.local_before_us;
  // Round up: the estimate must not fall behind the store clock.
  const std::int64_t elapsed_ms =
      (elapsed_us + platform::kMicrosPerMilli - 1) / platform::kMicrosPerMilli;
  return observation.store_now_ms + elapsed_ms;
}

}  // namespace spotcheck::location
