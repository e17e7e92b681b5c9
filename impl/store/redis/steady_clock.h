// platform::Clock on std::chrono::steady_clock, for callers of the Redis provider that have no
// platform of their own (tests, benchmarks, tools). Never used inside a simulation.
#pragma once

#include <chrono>
#include <thread>

#include "impl/platform/clock.h"

namespace spotcheck::store::redis {

class SteadyClock final : public platform::Clock {
 public:
  platform::TimeUs now_us() const override {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void sleep_until(platform::TimeUs deadline_us) override {
    const platform::TimeUs now = now_us();
    if (deadline_us > now) {
      std::this_thread::sleep_for(std::chrono::microseconds(deadline_us - now));
    }
  }
};

}  // namespace spotcheck::store::redis
