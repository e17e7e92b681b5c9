// The out-of-contract fault set against the real protocol (faults/out_of_contract.h, issue 11):
// each kind alone provokes a violation the protocol cannot prevent — the spec's promise rests on
// the assumption it breaks — and a campaign names that kind; an in-contract bug stays a failure of
// the campaign with them on.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

#include "faults/out_of_contract.h"
#include "replay/campaign/campaign_runner.h"
#include "scenarios/authority/authority_scenarios.h"
#include "tests/campaign/needs_planted_bugs.h"

namespace spotcheck::scenarios::authority {
namespace {

constexpr std::uint64_t kSeeds = 40;

class OutOfContractKind : public ::testing::TestWithParam<faults::FaultKind> {};

TEST_P(OutOfContractKind, ACampaignFindsSeedsThatFailOnlyWithItAndNamesIt) {
  const faults::FaultKind kind = GetParam();
  const AuthorityScenario scenario(authority_scenario_config("default"));
  cli::CampaignOptions options;
  options.scenario = &scenario;
  options.scenario_label = "default";
  options.first_seed = 1;
  options.seeds = kSeeds;
  options.jobs = 2;
  options.out_of_contract = faults::out_of_contract_bit(kind);
  const reports::CampaignResult result = cli::run_campaign(options);
  EXPECT_TRUE(result.failures.empty()) << "in contract, the real protocol passes: "
                                       << (result.failures.empty() ? "" : result.failures[0].violation->message);
  ASSERT_FALSE(result.out_of_contract_failures.empty()) << faults::to_string(kind) << " broke nothing in " << kSeeds
                                                        << " seeds: the world cannot provoke its hazard";
  const SeedOutcome& first = result.out_of_contract_failures.front();
  EXPECT_EQ(first.out_of_contract_needed, std::vector<std::string>{faults::to_string(kind)});
  EXPECT_TRUE(scenario.run(SeedRequest{first.seed, false, false}).ok()) << "it passes with the kind off";
  std::cout << "[ out of contract ] " << faults::to_string(kind) << ": " << result.out_of_contract_seeds << " of "
            << kSeeds << " default seeds fail only with it, first seed " << first.seed << ": "
            << (first.violation ? first.violation->property + ": " + first.violation->message.substr(0, 200)
                                : first.failure.value_or("?"))
            << "\n";
}

INSTANTIATE_TEST_SUITE_P(Kinds, OutOfContractKind,
                         ::testing::Values(faults::FaultKind::kStoreClockJump, faults::FaultKind::kStoreLostWrites,
                                           faults::FaultKind::kNodeClockStep),
                         [](const ::testing::TestParamInfo<faults::FaultKind>& info) {
                           std::string name = faults::to_string(info.param);
                           std::erase(name, '-');
                           return name;
                         });

// A real bug (planted: admission past the deadline) fails the campaign with every out-of-contract
// kind on too: its seeds fail with them off as well, so they are not explained away.
TEST(OutOfContractCampaign, AnInContractBugStaysAFailureWithThemOn) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  AuthorityScenarioConfig config = authority_scenario_config("lease-pause");
  config.protocol.planted_bugs.insert(planted::PlantedBug::kAdmitPastDeadline);
  config.properties = {"single-owner"};
  const AuthorityScenario scenario(config);
  cli::CampaignOptions options;
  options.scenario = &scenario;
  options.scenario_label = "lease-pause";
  options.first_seed = 1;
  options.seeds = 10;
  options.jobs = 2;
  options.out_of_contract = faults::all_out_of_contract();
  const reports::CampaignResult result = cli::run_campaign(options);
  ASSERT_FALSE(result.failures.empty());
  EXPECT_FALSE(result.passed());
  EXPECT_TRUE(result.failures.front().out_of_contract_needed.empty());
  EXPECT_TRUE(scenario.run(SeedRequest{result.failures.front().seed, false, false}).violation.has_value());
}

}  // namespace
}  // namespace spotcheck::scenarios::authority
