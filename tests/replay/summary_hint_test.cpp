// A campaign's failure report names the shrink command next to the replay command.
#include <gtest/gtest.h>

#include <sstream>

#include "reports/summary_text.h"

namespace spotcheck::reports {
namespace {

TEST(SummaryHint, AViolationGetsAShrinkCommandARunFailureDoesNot) {
  CampaignResult result;
  result.scenario = "lease-pause";
  result.swarm = true;
  scenarios::SeedOutcome violated;
  violated.seed = 7;
  violated.violation = scenarios::Violation{"single-owner", "two owners", 1'000'000, 12};
  scenarios::SeedOutcome broke;
  broke.seed = 9;
  broke.failure = "step budget exhausted";
  result.failures = {violated, broke};
  std::ostringstream text;
  write_summary_text(result, text);
  const std::string s = text.str();
  EXPECT_NE(s.find("  replay: spotcheck replay --scenario lease-pause --seed 7 --swarm\n"
                   "  shrink: spotcheck shrink --scenario lease-pause --seed 7 --swarm\n"),
            std::string::npos)
      << s;
  // A run failure shrinks too (to the same failure).
  EXPECT_NE(s.find("  shrink: spotcheck shrink --scenario lease-pause --seed 9 --swarm\n"), std::string::npos) << s;
}

}  // namespace
}  // namespace spotcheck::reports
