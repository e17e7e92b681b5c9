#include "reports/campaign_result.h"

namespace spotcheck::reports {

std::map<std::string, std::uint64_t> CampaignResult::violations_by_property() const {
  std::map<std::string, std::uint64_t> counts;
  for (const auto& outcome : failures) {
    if (outcome.violation.has_value()) {
      ++counts[outcome.violation->property];
    } else if (outcome.failure.has_value()) {
      ++counts["run-failure"];
    }
  }
  return counts;
}

std::string replay_command(const std::string& scenario, std::uint64_t seed, bool swarm) {
  std::string command = "spotcheck replay --scenario " + scenario + " --seed " + std::to_string(seed);
  if (swarm) {
    command += " --swarm";
  }
  return command;
}

std::string shrink_command(const std::string& scenario, std::uint64_t seed, bool swarm) {
  std::string command = "spotcheck shrink --scenario " + scenario + " --seed " + std::to_string(seed);
  if (swarm) {
    command += " --swarm";
  }
  return command;
}

}  // namespace spotcheck::reports
