// The local monotonic clock of one host: virtual time seen through an offset and a rate error.
//   local(t) = anchor_local + (t - anchor_virtual) + floor((t - anchor_virtual) * drift_ppm / 1e6)
// Changing the drift re-anchors at the current virtual time, so local time never jumps and never
// runs backwards (drift is bounded well above -1e6 ppm).
#pragma once

#include <cstdint>

#include "sim/ids.h"

namespace spotcheck::sim {

inline constexpr std::int64_t kDriftPpmLimit = 100'000;  // 10%: far beyond any real oscillator

class LocalClock {
 public:
  explicit LocalClock(TimeUs offset_us = 0) : anchor_local_us_(offset_us) {}

  // Local time at virtual time `virtual_us` (virtual_us >= the last re-anchor time).
  TimeUs local_from_virtual(TimeUs virtual_us) const {
    if (drift_ppm_ == 0 && virtual_us >= anchor_virtual_us_) {
      return anchor_local_us_ + (virtual_us - anchor_virtual_us_);  // the common case, inline
    }
    return local_from_virtual_drifted(virtual_us);
  }
  // Earliest virtual time (>= the anchor) at which local time reaches `local_us`; kNever stays kNever.
  TimeUs virtual_from_local(TimeUs local_us) const {
    if (drift_ppm_ == 0 && local_us > anchor_local_us_ && local_us != platform::kNever) {
      return anchor_virtual_us_ + (local_us - anchor_local_us_);  // the common case, inline
    }
    return virtual_from_local_drifted(local_us);
  }
  // Re-anchors at `now_virtual_us` and runs at (1 + ppm / 1e6) of virtual speed from then on.
  void set_drift_ppm(TimeUs now_virtual_us, std::int64_t drift_ppm);
  std::int64_t drift_ppm() const { return drift_ppm_; }
  // Out of contract (faults/out_of_contract.h): re-anchors at `now_virtual_us` with local time
  // `by_us` ahead (behind, when negative; never below 0) of what it read, at the same drift. A
  // step back breaks the "never runs backwards" rule above on purpose. Returns the step taken.
  TimeUs step(TimeUs now_virtual_us, TimeUs by_us);

 private:
  TimeUs local_from_virtual_drifted(TimeUs virtual_us) const;
  TimeUs virtual_from_local_drifted(TimeUs local_us) const;

  TimeUs anchor_virtual_us_ = 0;
  TimeUs anchor_local_us_ = 0;
  std::int64_t drift_ppm_ = 0;
};

}  // namespace spotcheck::sim
