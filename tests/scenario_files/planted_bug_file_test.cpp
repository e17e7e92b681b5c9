// Every planted bug of the catalogue (scenarios/files/planted_bug_catalogue.h) can be planted from a
// scenario file, and the campaign of that file catches it with the property the catalogue names,
// in the built-in scenario it names. Files of the creation and Instance Spot families refuse the
// fields and bugs they cannot hold, naming the JSON path.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <ostream>
#include <string>
#include <variant>

#include "scenarios/files/any_scenario_file.h"
#include "scenarios/files/planted_bug_catalogue.h"
#include "tests/campaign/needs_planted_bugs.h"
#include "tests/campaign/seeds_until_violation.h"

namespace spotcheck::scenarios::files {

// gtest names a parameter by it (found by argument-dependent lookup).
void PrintTo(const PlantedBugInfo& bug, std::ostream* os) { *os << bug.name; }

namespace {

constexpr std::uint64_t kSeedsMax = 200;

std::string error_of(const std::string& json) {
  try {
    parse_any_scenario(json, "t.json");
  } catch (const ScenarioFileError& e) {
    return e.what();
  }
  return "no error";
}

// The file that plants `bug` in the scenario that catches it, judged by that property alone; the
// creation scenarios' files keep every property (their campaigns, tests/location_creation/, do).
std::string file_planting(const PlantedBugInfo& bug) {
  std::string json = R"({"scenarioVersion": 1, "name": "planted", "base": ")" + std::string(bug.caught_in) +
                     R"(", "plantedBugs": [")" + std::string(bug.name) + "\"]";
  if (bug.caught_in != "create-storm" && bug.caught_in != "message-storm") {
    json += R"(, "properties": [")" + std::string(bug.caught_by) + "\"]";
  }
  if (bug.bug == planted::PlantedBug::kUnfencedWrites) {
    json += R"(, "workload": {"deleteProbability": 0.5})";  // as tests/campaign/planted_bug_test.cpp tunes it
  }
  return json + "}";
}

bool planted_in(const AnyScenarioConfig& config, planted::PlantedBug bug) {
  return std::visit(
      [bug](const auto& c) {
        if constexpr (requires { c.creation; }) {
          if (c.creation.planted_bugs.contains(bug)) {
            return true;
          }
        }
        return c.protocol.planted_bugs.contains(bug);
      },
      config);
}

class PlantedBugFile : public ::testing::TestWithParam<PlantedBugInfo> {};

TEST_P(PlantedBugFile, AFilePlantsItAndItsCampaignCatchesIt) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const PlantedBugInfo& bug = GetParam();
  const AnyScenarioConfig config = parse_any_scenario(file_planting(bug), "planted.json");
  ASSERT_TRUE(planted_in(config, bug.bug)) << bug.name;
  const std::unique_ptr<Scenario> scenario = make_file_scenario(config);
  const auto [seeds, outcome] = testing::seeds_until_violation(*scenario, kSeedsMax);
  ASSERT_TRUE(outcome.violation.has_value())
      << bug.name << ": no violation in " << seeds << " seeds" << (outcome.failure ? ": " + *outcome.failure : "");
  EXPECT_EQ(outcome.violation->property, bug.caught_by) << outcome.violation->message;
  std::cout << "[ planted file ] " << bug.name << " in " << bug.caught_in << " caught by "
            << outcome.violation->property << " after " << seeds << " seed(s)\n";
}

INSTANTIATE_TEST_SUITE_P(Catalogue, PlantedBugFile, ::testing::ValuesIn(planted_bugs().begin(), planted_bugs().end()),
                         [](const ::testing::TestParamInfo<PlantedBugInfo>& info) {
                           std::string name(info.param.name);
                           for (char& c : name) {
                             c = c == '-' ? '_' : c;
                           }
                           return name;
                         });

TEST(PlantedBugFile, EveryBugCanBePlantedWhereItIsCaught) {
  for (const PlantedBugInfo& bug : planted_bugs()) {
    const auto family = bug.caught_in == "create-storm" || bug.caught_in == "message-storm" ? ScenarioFamily::kCreation
                        : bug.caught_in == "instance-route" ? ScenarioFamily::kInstance
                                                            : ScenarioFamily::kLocation;
    EXPECT_TRUE(bug.plantable_in(family)) << bug.name;
  }
}

TEST(PlantedBugFile, ABugAFamilyCannotPlantIsRefusedNamingThePath) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "t", "plantedBugs": ["factory-before-verify"]})"),
            "t.json: plantedBugs[0] \"factory-before-verify\" cannot be planted in a Location scenario (base "
            "\"default\"); it is caught in create-storm");
  EXPECT_NE(error_of(R"({"scenarioVersion": 1, "name": "t", "base": "instance-route",
                        "plantedBugs": ["admit-past-deadline", "unfenced-writes"]})")
                .find("t.json: plantedBugs[1] \"unfenced-writes\" cannot be planted in an Instance Spot scenario"),
            std::string::npos);
}

TEST(PlantedBugFile, WithoutPlantedBugsCompiledPlantingIsRefused) {
  if (planted::kPlantedBugsCompiled) {
    GTEST_SKIP() << "built with SPOTCHECK_PLANTED_BUGS=ON (scripts/check-no-planted-bugs runs the OFF build)";
  }
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "t", "plantedBugs": ["admit-past-deadline"]})"),
            "t.json: plantedBugs[0] \"admit-past-deadline\" cannot be planted: this spotcheck was built with "
            "SPOTCHECK_PLANTED_BUGS=OFF");
}

TEST(FamilyFile, CreationAndInstanceFilesReadTheirFields) {
  const auto storm = parse_any_scenario(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm",
      "description": "d", "faults": "none", "maxSteps": 1000})", "t.json");
  const auto& creation = std::get<creation::CreationScenarioConfig>(storm);
  EXPECT_EQ(creation.name, "s");
  EXPECT_EQ(creation.description, "d");
  EXPECT_EQ(creation.max_steps, 1000u);
  EXPECT_EQ(creation.plan(creation.faults_stop_us).store_request_loss, 0.0);
  const auto route = parse_any_scenario(R"({"scenarioVersion": 1, "name": "r", "base": "instance-route",
      "properties": ["at-most-once"]})", "t.json");
  EXPECT_EQ(std::get<instance::InstanceScenarioConfig>(route).properties, (std::vector<std::string>{"at-most-once"}));
  EXPECT_TRUE(std::holds_alternative<authority::AuthorityScenarioConfig>(
      parse_any_scenario(R"({"scenarioVersion": 1, "name": "l", "base": "churn"})", "t.json")));
}

TEST(FamilyFile, FieldsAFamilyDoesNotTakeAreRefusedNamingThePath) {
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm", "protocol": {}})"),
            "t.json: protocol is not a known key");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm", "workload": {"objects": 3}})"),
            "t.json: workload.objects is not a known key");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "r", "base": "instance-route", "nodes": 3})"),
            "t.json: nodes is not a known key");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "r", "base": "instance-route", "colour": 3})"),
            "t.json: colour is not a known key");
  EXPECT_NE(error_of(R"({"scenarioVersion": 1, "name": "r", "base": "synthetic"})")
                .find("t.json: base must name a built-in scenario a file can extend"),
            std::string::npos);
}

TEST(FamilyFile, TheLocationReaderRefusesAnotherFamilysFile) {
  try {
    parse_scenario(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm"})", "t.json");
    FAIL() << "a creation file was read as a Location file";
  } catch (const ScenarioFileError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.json: base names a creation scenario (\"create-storm\"); only a Location scenario file is read here");
  }
}

// The examples of the creation and Instance Spot families (docs/scenarios.md) plant a bug each.
TEST(FamilyFile, TheShippedFamilyExamplesAreCaughtByTheirProperty) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  for (const char* bug_name : {"factory-before-verify", "retry-stale-instance-route", "never-cancel-abandoned"}) {
    const std::string path = std::string(SPOTCHECK_SCENARIO_EXAMPLES) + "/planted-" + bug_name + ".json";
    const std::unique_ptr<Scenario> scenario = make_file_scenario(load_any_scenario_file(path));
    EXPECT_EQ(scenario->name(), std::string("planted-") + bug_name);
    const auto [seeds, outcome] = testing::seeds_until_violation(*scenario, kSeedsMax);
    ASSERT_TRUE(outcome.violation.has_value()) << path << ": no violation in " << seeds << " seeds";
    EXPECT_EQ(outcome.violation->property, find_planted_bug(bug_name)->caught_by) << path;
  }
}

}  // namespace
}  // namespace spotcheck::scenarios::files
