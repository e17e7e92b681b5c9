// Seam: the local monotonic clock of one host process.
#pragma once

#include "impl/platform/time.h"

namespace spotcheck::platform {

class Clock {
 public:
  virtual ~Clock() = default;
  // Local monotonic time. May drift relative to other hosts and to the store's clock.
  virtual TimeUs now_us() const = 0;
  // Parks the calling task until now_us() >= deadline_us.
  virtual void sleep_until(TimeUs deadline_us) = 0;
  void sleep_for(TimeUs duration_us) { sleep_until(now_us() + duration_us); }
};

}  // namespace spotcheck::platform
