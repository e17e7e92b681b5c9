#include "sim/time/local_clock.h"

#include <algorithm>

#include "impl/check/check.h"

namespace spotcheck::sim {
namespace {

constexpr __int128 kMillion = 1'000'000;

// floor(a / b) for b > 0.
__int128 floor_div(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && (a < 0)) {
    q -= 1;
  }
  return q;
}

// Below this many microseconds (~2.2 years) elapsed * ppm fits in 64 bits for |ppm| <= kDriftPpmLimit.
constexpr std::int64_t kFastElapsedLimit = std::int64_t{1} << 46;

// Local elapsed time after `elapsed` (>= 0) virtual microseconds at `ppm`.
__int128 local_elapsed(__int128 elapsed, std::int64_t ppm) {
  if (ppm == 0) {
    return elapsed;
  }
  if (elapsed < kFastElapsedLimit) {
    const auto small = static_cast<std::int64_t>(elapsed);
    const std::int64_t scaled = small * ppm;
    std::int64_t correction = scaled / 1'000'000;
    if (scaled % 1'000'000 != 0 && scaled < 0) {
      correction -= 1;
    }
    return small + correction;
  }
  return elapsed + floor_div(elapsed * ppm, kMillion);
}

}  // namespace

TimeUs LocalClock::step(TimeUs now_virtual_us, TimeUs by_us) {
  SPOTCHECK_ASSERT_ABORT(now_virtual_us >= anchor_virtual_us_);
  const TimeUs now_local_us = local_from_virtual(now_virtual_us);
  const TimeUs taken_us = std::max(by_us, -now_local_us);
  SPOTCHECK_ASSERT_ABORT(taken_us <= platform::kNever - now_local_us);
  anchor_local_us_ = now_local_us + taken_us;
  anchor_virtual_us_ = now_virtual_us;
  return taken_us;
}

TimeUs LocalClock::local_from_virtual_drifted(TimeUs virtual_us) const {
  SPOTCHECK_ASSERT_ABORT(virtual_us >= anchor_virtual_us_);
  if (drift_ppm_ == 0) {
    return anchor_local_us_ + (virtual_us - anchor_virtual_us_);
  }
  const __int128 local = anchor_local_us_ + local_elapsed(virtual_us - anchor_virtual_us_, drift_ppm_);
  SPOTCHECK_ASSERT_ABORT(local <= platform::kNever);
  return static_cast<TimeUs>(local);
}

TimeUs LocalClock::virtual_from_local_drifted(TimeUs local_us) const {
  if (local_us == platform::kNever) {
    return platform::kNever;
  }
  if (local_us <= anchor_local_us_) {
    return anchor_virtual_us_;
  }
  if (drift_ppm_ == 0) {
    return anchor_virtual_us_ + (local_us - anchor_local_us_);
  }
  const __int128 wanted = static_cast<__int128>(local_us) - anchor_local_us_;
  // First guess from the exact rate, then step to the smallest elapsed that reaches `wanted`.
  __int128 elapsed = (wanted * kMillion + (kMillion + drift_ppm_) - 1) / (kMillion + drift_ppm_);
  for (int step = 0; local_elapsed(elapsed, drift_ppm_) < wanted; ++step) {
    SPOTCHECK_ASSERT_ABORT(step < 4);
    ++elapsed;
  }
  for (int step = 0; elapsed > 0 && local_elapsed(elapsed - 1, drift_ppm_) >= wanted; ++step) {
    SPOTCHECK_ASSERT_ABORT(step < 4);
    --elapsed;
  }
  const __int128 result = anchor_virtual_us_ + elapsed;
  if (result >= platform::kNever) {
    return platform::kNever;
  }
  return static_cast<TimeUs>(result);
}

void LocalClock::set_drift_ppm(TimeUs now_virtual_us, std::int64_t drift_ppm) {
  SPOTCHECK_ASSERT_ABORT(drift_ppm >= -kDriftPpmLimit);
  SPOTCHECK_ASSERT_ABORT(drift_ppm <= kDriftPpmLimit);
  anchor_local_us_ = local_from_virtual(now_virtual_us);
  anchor_virtual_us_ = now_virtual_us;
  drift_ppm_ = drift_ppm;
}

}  // namespace spotcheck::sim
