// Scenario files of the creation and Instance Spot families hold their parameters (node counts,
// phases, workload, a creation file's node links) and a config of either family is written back as
// a file that reads to the same config (scenarios/files/family_files.h).
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "scenarios/creation/creation_scenarios.h"
#include "scenarios/files/any_scenario_file.h"
#include "scenarios/files/family_files.h"
#include "scenarios/instance/instance_scenario.h"

namespace spotcheck::scenarios::files {
namespace {

std::string error_of(const std::string& json) {
  try {
    parse_any_scenario(json, "t.json");
  } catch (const ScenarioFileError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CreationFile, ItsParametersReachTheConfig) {
  const auto any = parse_any_scenario(R"({"scenarioVersion": 1, "name": "small", "base": "message-storm",
      "nodes": 3, "faultsSeconds": 20, "livenessSeconds": 30, "trafficSeconds": 40,
      "workload": {"actorIds": 1, "spotIds": 1, "clientsPerNode": 1, "thinkMinMs": 20, "thinkMaxMs": 600,
                   "sendMessageWeight": 0, "timerProbability": 0, "factoryDelayMaxMs": 0},
      "nodeLinks": {"loss": 0, "burstGapMs": 0, "tail": 0.5, "tailMaxMs": 900},
      "properties": ["creation-liveness"]})",
                                      "t.json");
  const auto& c = std::get<creation::CreationScenarioConfig>(any);
  EXPECT_EQ(c.base, "message-storm");
  EXPECT_EQ(c.node_count, 3u);
  EXPECT_EQ(c.faults_stop_us, platform::seconds(20));
  EXPECT_EQ(c.liveness_window_us, platform::seconds(30));
  EXPECT_EQ(c.workload.traffic_stop_us, platform::seconds(40));
  EXPECT_EQ(c.workload.actor_ids, 1u);
  EXPECT_EQ(c.workload.clients_per_node, 1u);
  EXPECT_EQ(c.workload.think_max_us, platform::millis(600));
  EXPECT_EQ(c.workload.send_message_weight, 0u);
  EXPECT_EQ(c.workload.factory_delay_max_us, 0);
  EXPECT_EQ(c.workload.post_probability, 0.2) << "a key left out keeps the base's value";
  EXPECT_EQ(c.node_link_loss, 0.0);
  EXPECT_EQ(c.node_link_burst_gap_us, 0);
  EXPECT_EQ(c.node_link_tail, 0.5);
  EXPECT_EQ(c.node_link_tail_max_us, platform::millis(900));
  EXPECT_EQ(c.properties, (std::vector<std::string>{"creation-liveness"}));
}

TEST(InstanceFile, ItsParametersReachTheConfig) {
  const auto any = parse_any_scenario(R"({"scenarioVersion": 1, "name": "small", "base": "instance-route",
      "clientNodes": 1, "serverNodes": 2, "faultsSeconds": 10, "trafficSeconds": 20,
      "workload": {"spotIds": 1, "clientsPerNode": 3, "closeOnMessageProbability": 0, "reincarnateShare": 1}})",
                                      "t.json");
  const auto& c = std::get<instance::InstanceScenarioConfig>(any);
  EXPECT_EQ(c.client_nodes, 1u);
  EXPECT_EQ(c.server_nodes, 2u);
  EXPECT_EQ(c.faults_stop_us, platform::seconds(10));
  EXPECT_EQ(c.workload.traffic_stop_us, platform::seconds(20));
  EXPECT_EQ(c.workload.spot_ids, 1u);
  EXPECT_EQ(c.workload.clients_per_node, 3u);
  EXPECT_EQ(c.workload.close_on_message_probability, 0.0);
  EXPECT_EQ(c.workload.reincarnate_share, 1.0);
}

TEST(FamilyFile, ValuesOutOfTheirRulesAreRefusedInOneLine) {
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm", "nodes": 1})"),
            "t.json: nodes must be in [2, 64], not 1");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm",
      "workload": {"thinkMinMs": 500, "thinkMaxMs": 100}})"),
            "t.json: workload thinkMinMs must not exceed thinkMaxMs");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm",
      "workload": {"getOrCreateActorWeight": 0, "createActorWeight": 0, "getOrCreateSpotWeight": 0,
                   "createSpotWeight": 0, "destroyWeight": 0, "findWeight": 0, "retryOwnOperationWeight": 0}})"),
            "t.json: workload must give at least one request kind a weight above 0");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm", "nodeLinks": {"burstLengthMs": 0}})"),
            "t.json: nodeLinks.burstLengthMs must be in [1, 3.6e+06], not 0");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "s", "base": "create-storm", "trafficSeconds": 100})"),
            "t.json: trafficSeconds must not exceed faultsSeconds + livenessSeconds (requests must end in the liveness "
            "window)");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "r", "base": "instance-route", "trafficSeconds": 50})"),
            "t.json: trafficSeconds plus workload.requestDeadlineMs must not exceed faultsSeconds + livenessSeconds "
            "(every request must end in the liveness window)");
  EXPECT_EQ(error_of(R"({"scenarioVersion": 1, "name": "r", "base": "instance-route", "serverNodes": 0})"),
            "t.json: serverNodes must be in [1, 64], not 0");
}

// A config changed in every kind of field a file holds is written, and the file reads back to it.
TEST(FamilyFile, AWrittenCreationConfigReadsBackToItself) {
  for (const char* base : {"create-storm", "message-storm"}) {
    creation::CreationScenarioConfig c = creation::creation_scenario_config(base);
    c.name = std::string(base) + "-small";
    c.description = "smaller";
    c.node_count = 2;
    c.faults_stop_us = platform::seconds(11);
    c.workload.traffic_stop_us = platform::seconds(36);
    c.workload.actor_ids = 1;
    c.workload.destroy_weight = 0;
    c.workload.kept_ref_probability = 0.125;
    c.workload.think_max_us = platform::millis(1'200);
    c.node_link_burst_gap_us = 0;
    c.properties = {"creation-liveness"};
    const ScenarioFileText text = write_creation_scenario(c);
    EXPECT_TRUE(text.not_written.empty());
    const auto back = std::get<creation::CreationScenarioConfig>(parse_any_scenario(text.json, "w.json"));
    EXPECT_EQ(creation_scenario_difference(c, back), "") << text.json;
    EXPECT_EQ(write_any_scenario(back).json, text.json);
  }
}

TEST(FamilyFile, AWrittenInstanceConfigReadsBackToItself) {
  instance::InstanceScenarioConfig c = instance::instance_scenario_config("instance-route");
  c.name = "route-small";
  c.client_nodes = 1;
  c.server_nodes = 1;
  c.faults_stop_us = platform::seconds(7);
  c.workload.traffic_stop_us = platform::seconds(17);
  c.workload.spot_ids = 1;
  c.workload.close_after_first_probability = 0;
  c.properties = {"at-most-once"};
  const ScenarioFileText text = write_instance_scenario(c);
  EXPECT_TRUE(text.not_written.empty());
  const auto back = std::get<instance::InstanceScenarioConfig>(parse_any_scenario(text.json, "w.json"));
  EXPECT_EQ(instance_scenario_difference(c, back), "") << text.json;
  // The differ sees each field the file holds.
  instance::InstanceScenarioConfig other = back;
  other.workload.reincarnate_share = 0.5;
  EXPECT_EQ(instance_scenario_difference(back, other), "workload.reincarnateShare: 0.3 vs 0.5");
}

TEST(FamilyFile, AConfigWithNoBaseCannotBeWritten) {
  creation::CreationScenarioConfig c = creation::creation_scenario_config("create-storm");
  c.base.clear();
  EXPECT_THROW(write_creation_scenario(c), ScenarioFileError);
}

}  // namespace
}  // namespace spotcheck::scenarios::files
