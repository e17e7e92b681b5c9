// Virtual times and probabilities as people read them, in the few styles the harness prints:
// fault plans, shrink steps and reports, stories, checkers' messages and the Redis run summary.
#pragma once

#include <string>

#include "impl/platform/time.h"

namespace spotcheck::sim {

// Three significant digits: "1.5s", "0.002s", "1.2e+03s" (plans and shrink steps).
std::string seconds_short(platform::TimeUs us);
// Exact to the microsecond: "1.500000s" (stories and violation messages).
std::string seconds_exact(platform::TimeUs us);
// `decimals` digits after the point (0..6): seconds_fixed(1'500'000, 1) == "1.5s".
std::string seconds_fixed(platform::TimeUs us, int decimals);
// A run's length for summaries: "12.3 s", or "4.56 h" from an hour on.
std::string duration_text(platform::TimeUs us);
// Three significant digits: "0.25", "1e-05".
std::string probability_text(double p);

}  // namespace spotcheck::sim
