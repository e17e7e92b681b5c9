// Durations as the reports print them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace spotcheck::reports {

// "12.3 s", or "4.56 h" from an hour on.
inline std::string simulated_time_text(std::int64_t us) {
  const double s = static_cast<double>(us) / 1e6;
  char buffer[64];
  if (s >= 3600.0) {
    std::snprintf(buffer, sizeof buffer, "%.2f h", s / 3600.0);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f s", s);
  }
  return buffer;
}

}  // namespace spotcheck::reports
