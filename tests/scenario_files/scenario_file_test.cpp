#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenarios/files/scenario_file.h"
#include "scenarios/authority/authority_scenarios.h"
#include "tests/campaign/needs_planted_bugs.h"

namespace spotcheck::scenarios::files {
namespace {

using authority::AuthorityScenario;

std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "t.json");
  } catch (const ScenarioFileError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioFile, AMinimalFileIsItsBaseScenario) {
  const auto config = parse_scenario(R"({"scenarioVersion": 1, "name": "mine", "base": "churn"})", "t.json");
  EXPECT_EQ(config.name, "mine");
  const AuthorityScenario from_file(config);
  const AuthorityScenario builtin(authority::authority_scenario_config("churn"));
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    EXPECT_EQ(from_file.run(SeedRequest{seed, false, false}).trace_hash,
              builtin.run(SeedRequest{seed, false, false}).trace_hash);
  }
}

TEST(ScenarioFile, RequiredMarksAreTheBasesUnlessTheFileNamesThem) {
  const auto inherited = parse_scenario(R"({"scenarioVersion": 1, "name": "m", "base": "churn"})", "t.json");
  EXPECT_EQ(inherited.required_marks, authority::authority_scenario_config("churn").required_marks);
  EXPECT_FALSE(inherited.required_marks.empty());
  const auto named = parse_scenario(
      R"({"scenarioVersion": 1, "name": "m", "requireMarks": ["capacity-full", "contention-retry"]})", "t.json");
  EXPECT_EQ(named.required_marks, (std::vector<platform::Mark>{platform::Mark::kCapacityFull,
                                                                platform::Mark::kContentionRetry}));
  EXPECT_EQ(AuthorityScenario(named).required_marks(), named.required_marks);
  EXPECT_TRUE(parse_scenario(R"({"scenarioVersion": 1, "name": "m", "requireMarks": []})", "t.json")
                  .required_marks.empty());
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","requireMarks":["nope"]})")
                .find("t.json: requireMarks[0] \"nope\" is not one of indeterminate-resolved-applied, "),
            std::string::npos)
      << error_of(R"({"scenarioVersion":1,"name":"x","requireMarks":["nope"]})");
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","requireMarks":["capacity-full","capacity-full"]})")
                .find("requireMarks[1] \"capacity-full\" is listed twice"),
            std::string::npos);
  // The writer keeps them: a written file reads back to the same marks.
  EXPECT_EQ(parse_scenario(write_scenario(named).json, "w.json").required_marks, named.required_marks);
}

TEST(ScenarioFile, EveryKnobIsRead) {
  const auto config = parse_scenario(R"({
    "scenarioVersion": 1, "name": "all", "description": "d", "nodes": 7,
    "faultsSeconds": 30, "livenessSeconds": 20, "trafficSeconds": 40, "maxSteps": 1000000,
    "workload": {"objects": 9, "actorsLimit": 3, "thinkMinMs": 5, "thinkMaxMs": 50,
                 "deleteProbability": 0.5, "abortProbability": 0.25, "requestDeadlineMs": 2000},
    "protocol": {"renewIntervalMs": 1000, "ownerLeaseTtlMs": 6000, "renewTimeoutMs": 1000, "fencingMarginMs": 2000,
                 "storeRequestTimeoutMs": 700},
    "faults": {"storeRequestLoss": 0.1, "storeReplyLoss": 0.2, "storeReplyDelay": 0.3,
               "storeOutage": {"gapMs": 1000, "lengthMs": 200}, "nodeKill": {"gapMs": 2000, "downMs": 300},
               "nodePause": {"gapMs": 3000, "maxMs": 400}, "networkLoss": 0.05,
               "networkPartition": {"gapMs": 4000, "lengthMs": 500}, "clockDriftMaxPpm": 100,
               "storeStall": {"gapMs": 5000, "lengthMs": 600}, "storeLateApply": {"probability": 0.04, "maxMs": 700},
               "linkTail": {"probability": 0.02, "maxMs": 900}}})",
                                     "t.json");
  EXPECT_EQ(config.description, "d");
  EXPECT_EQ(config.node_count, 7u);
  EXPECT_EQ(config.faults_stop_us, platform::seconds(30));
  EXPECT_EQ(config.liveness_window_us, platform::seconds(20));
  EXPECT_EQ(config.workload.traffic_stop_us, platform::seconds(40));
  EXPECT_EQ(config.max_steps, 1'000'000u);
  EXPECT_EQ(config.workload.object_count, 9u);
  EXPECT_EQ(config.workload.actors_limit, 3u);
  EXPECT_EQ(config.workload.think_min_us, platform::millis(5));
  EXPECT_EQ(config.workload.think_max_us, platform::millis(50));
  EXPECT_DOUBLE_EQ(config.workload.delete_probability, 0.5);
  EXPECT_DOUBLE_EQ(config.workload.abort_probability, 0.25);
  EXPECT_EQ(config.workload.request_deadline_us, platform::seconds(2));
  EXPECT_EQ(config.protocol.owner_lease_ttl_us, platform::seconds(6));
  EXPECT_EQ(config.protocol.store_request_timeout_us, platform::millis(700));
  const auto plan = config.plan(platform::seconds(30));
  EXPECT_DOUBLE_EQ(plan.store_request_loss, 0.1);
  EXPECT_DOUBLE_EQ(plan.store_reply_loss, 0.2);
  EXPECT_DOUBLE_EQ(plan.store_reply_delay, 0.3);
  EXPECT_EQ(plan.store_outage_length_us, platform::millis(200));
  EXPECT_EQ(plan.node_kill_gap_us, platform::seconds(2));
  EXPECT_EQ(plan.node_down_us, platform::millis(300));
  EXPECT_EQ(plan.node_pause_max_us, platform::millis(400));
  EXPECT_DOUBLE_EQ(plan.network_loss, 0.05);
  EXPECT_EQ(plan.partition_length_us, platform::millis(500));
  EXPECT_EQ(plan.clock_drift_max_ppm, 100);
  EXPECT_EQ(plan.store_stall_gap_us, platform::seconds(5));
  EXPECT_EQ(plan.store_stall_length_us, platform::millis(600));
  EXPECT_DOUBLE_EQ(plan.store_late_apply, 0.04);
  EXPECT_EQ(plan.store_late_apply_max_us, platform::millis(700));
  EXPECT_DOUBLE_EQ(plan.link_tail, 0.02);
  EXPECT_EQ(plan.link_tail_max_us, platform::millis(900));
  EXPECT_EQ(plan.faults_stop_us, platform::seconds(30));
}

TEST(ScenarioFile, NamedFaultPlans) {
  const auto none = parse_scenario(R"({"scenarioVersion":1,"name":"n","faults":"none"})", "t.json");
  EXPECT_EQ(none.plan(platform::seconds(1)).describe(), "none");
  const auto standard = parse_scenario(R"({"scenarioVersion":1,"name":"s","faults":"standard"})", "t.json");
  EXPECT_TRUE(standard.plan(platform::seconds(1)).enabled(faults::FaultKind::kNodeKill));
}

TEST(ScenarioFile, ErrorsNameTheFileAndThePath) {
  EXPECT_EQ(error_of("{"), error_of("{"));  // stable text
  EXPECT_NE(error_of("{").find("t.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("[]").find("the document must be an object"), std::string::npos);
  EXPECT_NE(error_of(R"({"name":"x"})").find("scenarioVersion must be 1 (it is missing)"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":2,"name":"x"})").find("scenarioVersion must be 1"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1})").find("name is required"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","nods":3})").find("nods is not a known key"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","nodes":0})").find("nodes must be in [1, 64]"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","nodes":2.5})").find("nodes must be a whole number"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","base":"nope"})").find("base must name a built-in"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","workload":{"objects":"3"}})").find("workload.objects must be a whole number"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","workload":{"thinkMinMs":9,"thinkMaxMs":5}})").find("thinkMinMs must not exceed"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","faults":{"nodeKill":{"gapMs":1,"lengthMs":2}}})").find("faults.nodeKill.lengthMs is not a known key"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","faults":"some"})").find("faults must be \"standard\""), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","faults":{"storeLateApply":{"probability":2}}})")
                .find("faults.storeLateApply.probability must be in [0, 1]"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","faults":{"storeStall":{"gapMs":1,"lenMs":2}}})")
                .find("lenMs"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","faults":{"networkLoss":1.5}})").find("faults.networkLoss must be in [0, 1]"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","protocol":{"renewIntervalMs":9000}})").find("spec §5"), std::string::npos);
  EXPECT_NE(error_of(R"({"scenarioVersion":1,"name":"x","trafficSeconds":1000})").find("trafficSeconds must not exceed"),
            std::string::npos);
  EXPECT_NE(std::string([] {
              try {
                load_scenario_file("/nonexistent/x.json");
              } catch (const ScenarioFileError& e) {
                return std::string(e.what());
              }
              return std::string();
            }())
                .find("/nonexistent/x.json: cannot be read"),
            std::string::npos);
}

// Issue 9: duplicate keys, deep nesting and huge inputs are refused in one line, before parsing.
TEST(ScenarioFile, DuplicateKeysAreRefusedNamingKeyAndPath) {
  EXPECT_EQ(error_of(R"({"scenarioVersion":1,"name":"a","name":"b"})"), R"(t.json: duplicate key "name" in the document)");
  EXPECT_EQ(error_of(R"({"scenarioVersion":1,"name":"a","workload":{"objects":3,"objects":4}})"),
            R"(t.json: duplicate key "objects" in workload)");
  EXPECT_EQ(error_of(R"({"scenarioVersion":1,"name":"a","faults":{"nodeKill":{"gapMs":1,"gapMs":1}}})"),
            R"(t.json: duplicate key "gapMs" in faults.nodeKill)");
}

TEST(ScenarioFile, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep = R"({"scenarioVersion":1,"name":"a","workload":)" + std::string(100'000, '[') + std::string(100'000, ']') + "}";
  const std::string error = error_of(deep);
  EXPECT_NE(error.find("t.json: JSON nested deeper than the limit of 64 levels"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(ScenarioFile, ErrorsAreOneLineEvenForKeysWithControlCharacters) {
  const std::string error = error_of("{\"scenarioVersion\":1,\"name\":\"x\",\"a\\nb\":1}");
  EXPECT_NE(error.find("a\\nb is not a known key"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(ScenarioFile, ANumberTooLargeForADoubleIsInvalidJsonNotACrash) {
  // Found by scenario_file_fuzzer (tests/fuzz/corpus/scenario_file/issue9-number-overflow):
  // nlohmann throws out_of_range, which parse_scenario did not catch.
  const std::string error = error_of(R"({"scenarioVersion":1,"name":"x","nodes":1e999})");
  EXPECT_NE(error.find("t.json: not valid JSON ("), std::string::npos) << error;
  EXPECT_NE(error_of("888e8875555555555").find("t.json: not valid JSON ("), std::string::npos);
}

TEST(ScenarioFile, LargeInputIsRefusedByItsLimit) {
  const std::string big = R"({"scenarioVersion":1,"name":"a","description":")" + std::string(kScenarioFileBytesMax, 'x') + R"("})";
  EXPECT_EQ(error_of(big), "t.json: larger than 1048576 bytes (the scenario file limit)");
  // /dev/zero is not a regular file and has no end: read at most the limit + 1 bytes.
  try {
    load_scenario_file("/dev/zero");
    ADD_FAILURE() << "/dev/zero loaded";
  } catch (const ScenarioFileError& e) {
    EXPECT_STREQ(e.what(), "/dev/zero: larger than 1048576 bytes (the scenario file limit)");
  }
}

TEST(ScenarioFile, ShippedExamplesLoadAndPass) {
  for (const char* name : {"long-pauses.json", "short-leases.json"}) {
    const std::string path = std::string(SPOTCHECK_SCENARIO_EXAMPLES) + "/" + name;
    const AuthorityScenario scenario(load_scenario_file(path));
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto outcome = scenario.run(SeedRequest{seed, false, false});
      EXPECT_TRUE(outcome.ok()) << name << " seed " << seed;
      EXPECT_GT(outcome.events, 1000u);
    }
  }
}

TEST(ScenarioFile, ThePlantedBugExampleFailsOnItsProperty) {
  SPOTCHECK_NEEDS_PLANTED_BUGS();
  const std::string path = std::string(SPOTCHECK_SCENARIO_EXAMPLES) + "/planted-admit-past-deadline.json";
  const AuthorityScenario scenario(load_scenario_file(path));
  ASSERT_TRUE(scenario.config().protocol.planted_bugs.contains(planted::PlantedBug::kAdmitPastDeadline));
  int failing = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto outcome = scenario.run(SeedRequest{seed, false, false});
    ASSERT_FALSE(outcome.failure.has_value()) << *outcome.failure;
    if (outcome.violation.has_value()) {
      EXPECT_EQ(outcome.violation->property, "single-owner") << "seed " << seed;
      ++failing;
    }
  }
  EXPECT_GT(failing, 0);
}

}  // namespace
}  // namespace spotcheck::scenarios::files
