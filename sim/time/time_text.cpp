#include "sim/time/time_text.h"

#include <cstdio>

#include "impl/check/check.h"

namespace spotcheck::sim {

namespace {

double as_seconds(platform::TimeUs us) { return static_cast<double>(us) / static_cast<double>(platform::kMicrosPerSecond); }

}  // namespace

std::string seconds_short(platform::TimeUs us) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3gs", as_seconds(us));
  return buffer;
}

std::string seconds_exact(platform::TimeUs us) { return seconds_fixed(us, 6); }

std::string seconds_fixed(platform::TimeUs us, int decimals) {
  SPOTCHECK_ASSERT_ABORT(decimals >= 0 && decimals <= 6);
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*fs", decimals, as_seconds(us));
  return buffer;
}

std::string duration_text(platform::TimeUs us) {
  const double s = as_seconds(us);
  char buffer[64];
  if (s >= 3600.0) {
    std::snprintf(buffer, sizeof buffer, "%.2f h", s / 3600.0);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f s", s);
  }
  return buffer;
}

std::string probability_text(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", p);
  return buffer;
}

}  // namespace spotcheck::sim
