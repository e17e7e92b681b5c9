// The time source of the kernel's real-time mode (WorldConfig::real_time): "world time" is the
// std::chrono::steady_clock time elapsed since the source was made, in microseconds.
//
// Only integration runs use it (docs/integration.md). A simulation never does: there, time is
// virtual and the run is deterministic. Header-only so the simulator library needs no new source.
#pragma once

#include <chrono>
#include <thread>

#include "impl/platform/time.h"

namespace spotcheck::sim {

class SteadyTimeSource {
 public:
  SteadyTimeSource() : origin_(std::chrono::steady_clock::now()) {}

  // Microseconds of steady time since construction; never decreases.
  platform::TimeUs elapsed_us() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - origin_).count();
  }

  // Blocks the calling thread until elapsed_us() >= target_us, or for at most kSleepMaxUs (the
  // kernel loops; far targets never overflow the clock's nanoseconds). Returns at once if due.
  void sleep_until(platform::TimeUs target_us) const {
    const platform::TimeUs now_us = elapsed_us();
    if (target_us <= now_us) {
      return;
    }
    const platform::TimeUs until_us = target_us - now_us > kSleepMaxUs ? now_us + kSleepMaxUs : target_us;
    std::this_thread::sleep_until(origin_ + std::chrono::microseconds(until_us));
  }

  static constexpr platform::TimeUs kSleepMaxUs = platform::kMicrosPerSecond;

  std::chrono::steady_clock::time_point origin() const { return origin_; }

 private:
  std::chrono::steady_clock::time_point origin_;
};

}  // namespace spotcheck::sim
