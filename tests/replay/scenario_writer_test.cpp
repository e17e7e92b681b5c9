// The scenario-file writer: what it writes, the loader reads back to the same configuration.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "scenarios/files/scenario_file.h"
#include "scenarios/authority/authority_scenarios.h"
#include "tests/campaign/needs_planted_bugs.h"

namespace spotcheck::scenarios::files {
namespace {

using authority::AuthorityScenario;
using authority::AuthorityScenarioConfig;

const char* const kBuiltins[] = {"default", "authority-race", "lease-pause", "store-outage", "churn", "relocation"};

TEST(ScenarioWriter, EveryBuiltInRoundTripsAndRunsTheSame) {
  for (const char* name : kBuiltins) {
    const AuthorityScenarioConfig config = authority::authority_scenario_config(name);
    const ScenarioFileText text = write_scenario(config);
    EXPECT_TRUE(text.not_written.empty()) << name;
    const AuthorityScenarioConfig back = parse_scenario(text.json, "written.json");
    EXPECT_EQ(scenario_difference(config, back), "") << name << "\n" << text.json;
    const auto a = AuthorityScenario(config).run(SeedRequest{1, false, false});
    const auto b = AuthorityScenario(back).run(SeedRequest{1, false, false});
    EXPECT_EQ(a.trace_hash, b.trace_hash) << name;
    EXPECT_EQ(a.events, b.events) << name;
  }
}

TEST(ScenarioWriter, ExampleFilesRoundTrip) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  for (const char* file : {"long-pauses.json", "short-leases.json", "planted-admit-past-deadline.json"}) {
    const AuthorityScenarioConfig config = load_scenario_file(std::string(SPOTCHECK_SCENARIO_EXAMPLES) + "/" + file);
    const ScenarioFileText text = write_scenario(config);
    const AuthorityScenarioConfig back = parse_scenario(text.json, "written.json");
    EXPECT_EQ(scenario_difference(config, back), "") << file;
    // Writing is a fixed point: the file written from the read-back config is the same text.
    EXPECT_EQ(write_scenario(back).json, text.json) << file;
  }
}

TEST(ScenarioWriter, EveryKnobSurvives) {
  AuthorityScenarioConfig config = authority::authority_scenario_config("default");
  config.name = "all-knobs";
  config.description = "every \"knob\" set";
  config.node_count = 7;
  config.faults_stop_us = platform::seconds(33);
  config.liveness_window_us = platform::millis(20'500);
  config.workload.traffic_stop_us = platform::seconds(41);
  config.workload.object_count = 9;
  config.workload.actors_limit = 3;
  config.workload.think_min_us = platform::millis(7);
  config.workload.think_max_us = platform::millis(70);
  config.workload.delete_probability = 0.125;
  config.workload.abort_probability = 0.3;
  config.workload.request_deadline_us = platform::millis(2500);
  config.workload.relocate_probability = 0.375;
  config.workload.post_probability = 0.25;
  config.workload.post_burst_max = 5;
  config.workload.post_gap_max_us = platform::millis(12);
  config.workload.restore_max_us = platform::millis(250);
  config.protocol.owner_lease_ttl_us = platform::seconds(20);
  config.protocol.route_cache_max_age_us = 0;
  config.protocol.message_follow_duration_us = platform::seconds(25);
  config.max_steps = 1'234'567;
  config.plan = [](platform::TimeUs stop_us) {
    faults::FaultPlan p;
    p.store_request_loss = 0.0123456789;
    p.store_reply_loss = 0.2;
    p.store_reply_delay = 0.3;
    p.store_outage_gap_us = platform::millis(1001);
    p.store_outage_length_us = platform::millis(202);
    p.node_kill_gap_us = platform::millis(2003);
    p.node_down_us = platform::millis(304);
    p.node_pause_gap_us = platform::millis(3005);
    p.node_pause_max_us = platform::millis(406);
    p.network_loss = 0.05;
    p.partition_gap_us = platform::millis(4007);
    p.partition_length_us = platform::millis(508);
    p.clock_drift_max_ppm = 99;
    p.faults_stop_us = stop_us;
    return p;
  };
  const ScenarioFileText text = write_scenario(config);
  const AuthorityScenarioConfig back = parse_scenario(text.json, "written.json");
  EXPECT_EQ(scenario_difference(config, back), "") << text.json;
  EXPECT_EQ(back.description, "every \"knob\" set");
  EXPECT_DOUBLE_EQ(back.plan(back.faults_stop_us).store_request_loss, 0.0123456789);
  EXPECT_EQ(back.protocol.route_cache_max_age_us, 0) << "0: no location cache, as the relocation scenario has";
  EXPECT_EQ(back.workload.restore_max_us, platform::millis(250));
  // A changed value is seen as a difference.
  AuthorityScenarioConfig other = back;
  other.workload.object_count = 8;
  EXPECT_EQ(scenario_difference(config, other), "workload.objects: 9 vs 8");
}

TEST(ScenarioWriter, PhasesKeepEveryMicrosecond) {
  AuthorityScenarioConfig config = authority::authority_scenario_config("default");
  for (const platform::TimeUs us : {41'123'000LL, 41'123'457LL, 1LL, 29'000'001LL, 86'000'000'001LL}) {
    config.faults_stop_us = us;
    config.liveness_window_us = us + 290'000;
    config.workload.traffic_stop_us = us;
    const AuthorityScenarioConfig back = parse_scenario(write_scenario(config).json, "written.json");
    EXPECT_EQ(back.faults_stop_us, config.faults_stop_us);
    EXPECT_EQ(back.liveness_window_us, config.liveness_window_us);
    EXPECT_EQ(back.workload.traffic_stop_us, config.workload.traffic_stop_us);
  }
}

TEST(ScenarioWriter, AFaultPlanThatIsNotWholeMillisecondsIsRefused) {
  AuthorityScenarioConfig config = authority::authority_scenario_config("lease-pause");
  config.plan = [](platform::TimeUs stop_us) {
    faults::FaultPlan p;
    p.node_pause_gap_us = platform::seconds(8) + 1;  // 8.000001 s
    p.node_pause_max_us = platform::seconds(30);
    p.faults_stop_us = stop_us;
    return p;
  };
  try {
    write_scenario(config);
    FAIL() << "a plan a file cannot hold was written";
  } catch (const ScenarioFileError& e) {
    EXPECT_NE(std::string(e.what()).find("faults.nodePause.gap_us"), std::string::npos) << e.what();
  }
}

TEST(ScenarioWriter, PlantedBugsAndPropertiesRoundTrip) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  AuthorityScenarioConfig config = authority::authority_scenario_config("lease-pause");
  config.protocol.planted_bugs.insert(planted::PlantedBug::kAdmitPastDeadline);
  config.protocol.planted_bugs.insert(planted::PlantedBug::kLeakCapacityOnRelease);
  config.properties = {"single-owner", "capacity"};
  const ScenarioFileText text = write_scenario(config);
  EXPECT_TRUE(text.not_written.empty());
  EXPECT_NE(text.json.find("\"plantedBugs\""), std::string::npos);
  const AuthorityScenarioConfig back = parse_scenario(text.json, "written.json");
  EXPECT_TRUE(back.protocol.planted_bugs.contains(planted::PlantedBug::kAdmitPastDeadline));
  EXPECT_TRUE(back.protocol.planted_bugs.contains(planted::PlantedBug::kLeakCapacityOnRelease));
  EXPECT_FALSE(back.protocol.planted_bugs.contains(planted::PlantedBug::kUnfencedWrites));
  EXPECT_EQ(back.properties, config.properties);
  EXPECT_EQ(scenario_difference(config, back), "");
}

TEST(ScenarioWriter, SettingsAFileCannotHoldAreNamed) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  AuthorityScenarioConfig config = authority::authority_scenario_config("lease-pause");
  config.protocol.planted_bugs.insert(planted::PlantedBug::kAdmitPastDeadline);
  config.protocol.planted_bugs.insert(planted::PlantedBug::kRetryStaleInstanceRoute);  // no Instance Spot traffic here
  const ScenarioFileText text = write_scenario(config);
  EXPECT_EQ(text.not_written, (std::vector<std::string>{"protocol.planted_bugs"}));
  AuthorityScenarioConfig back = parse_scenario(text.json, "written.json");
  EXPECT_TRUE(back.protocol.planted_bugs.contains(planted::PlantedBug::kAdmitPastDeadline));
  EXPECT_FALSE(back.protocol.planted_bugs.contains(planted::PlantedBug::kRetryStaleInstanceRoute));
  back.protocol.planted_bugs.insert(planted::PlantedBug::kRetryStaleInstanceRoute);
  EXPECT_EQ(scenario_difference(config, back), "");
}

TEST(ScenarioFile, PlantedBugsAndPropertiesAreCheckedByName) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const auto error_of = [](const std::string& json) {
    try {
      parse_scenario(json, "t.json");
    } catch (const ScenarioFileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = R"({"scenarioVersion": 1, "name": "t", )";
  EXPECT_NE(error_of(head + R"("plantedBugs": ["admit-past-deadlin"]})").find(
                "t.json: plantedBugs[0] \"admit-past-deadlin\" is not one of admit-past-deadline, unfenced-writes"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("plantedBugs": "unfenced-writes"})").find("t.json: plantedBugs must be an array"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("plantedBugs": ["unfenced-writes", "unfenced-writes"]})").find("is listed twice"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("properties": ["single-owner", 3]})").find("t.json: properties[1] must be a string"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("properties": ["singel-owner"]})").find("is not one of single-owner"), std::string::npos);
  EXPECT_NE(error_of(head + R"("properties": []})").find("must name at least one property"), std::string::npos);
  const AuthorityScenarioConfig config =
      parse_scenario(head + R"("plantedBugs": ["unfenced-writes"], "properties": ["fencing"]})", "t.json");
  EXPECT_TRUE(config.protocol.planted_bugs.contains(planted::PlantedBug::kUnfencedWrites));
  EXPECT_FALSE(config.protocol.planted_bugs.contains(planted::PlantedBug::kAdmitPastDeadline));
  EXPECT_EQ(config.properties, (std::vector<std::string>{"fencing"}));
}

}  // namespace
}  // namespace spotcheck::scenarios::files
