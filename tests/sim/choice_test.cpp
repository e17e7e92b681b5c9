// The choice seam (sim/choice/): seeded values are today's stream values, a recorded run replays
// to the same trace, a log that does not fit the run is refused naming the decision, the log is
// bounded, and the strategy sees only live candidates with stable ids.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "impl/check/check.h"
#include "sim/choice/decision_log.h"
#include "sim/choice/decision_log_text.h"
#include "sim/choice/recording_choice_source.h"
#include "sim/choice/replaying_choice_source.h"
#include "sim/choice/seeded_choice_source.h"
#include "sim/random/streams.h"
#include "sim/world.h"
#include "tests/sim/sim_test_support.h"

namespace spotcheck::sim {
namespace {

using testing::quiet_config;

// Three nodes that draw from their platform randomness, sleep drawn times and ping each other at
// equal instants: every kind of choice (stream draws, scheduler picks) happens.
RunOutcome run_pinging(World& world) {
  std::vector<ProcessId> nodes;
  for (int i = 0; i < 3; ++i) {
    nodes.push_back(world.add_process("n" + std::to_string(i), static_cast<RoutingId>(i + 1), [](platform::Platform& p) {
      for (int round = 0; round < 20; ++round) {
        p.clock.sleep_until(p.clock.now_us() + static_cast<TimeUs>(p.random.below(3)) * 1'000);
        p.events.emit("tick", {platform::Field::num("round", round)});
      }
    }));
  }
  for (ProcessId node : nodes) {
    world.start(node);
  }
  world.at(5'000, [&world] { world.record("drawn", {platform::Field::num("v", world.stream("workload").between(0, 9))}); });
  return world.run_until(platform::seconds(1), 100'000);
}

std::shared_ptr<const DecisionLog> recorded_log(std::uint64_t seed, std::uint64_t* hash) {
  WorldConfig config = quiet_config(seed);
  config.record_decisions = true;
  World world(config);
  *hash = run_pinging(world).trace_hash;
  return world.decision_log();
}

RunOutcome replayed(std::uint64_t seed, std::shared_ptr<const DecisionLog> log) {
  WorldConfig config = quiet_config(seed);
  config.replay_decisions = std::move(log);
  World world(config);
  return run_pinging(world);
}

TEST(Choice, SeededSourceGivesTheStreamsOwnValues) {
  Stream scheduler(7, "scheduler");
  UniformRandomStrategy strategy(scheduler.seeded());
  SeededChoiceSource seeded(strategy);
  StreamRegistry through_source(7);
  through_source.set_draw_source(seeded);
  Stream alone(7, "network");
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(through_source.get("network").next_u64(), alone.next_u64());
  }
}

TEST(Choice, RecordingDoesNotChangeTheRun) {
  std::uint64_t recorded_hash = 0;
  const auto log = recorded_log(3, &recorded_hash);
  World plain(quiet_config(3));
  EXPECT_EQ(run_pinging(plain).trace_hash, recorded_hash);
  ASSERT_NE(log, nullptr);
  EXPECT_GT(log->size(), 50u);
  // Picks are logged under "scheduler", draws under their streams.
  const auto scheduler = log->find_stream("scheduler");
  ASSERT_TRUE(scheduler.has_value());
  std::set<std::uint32_t> counts;
  for (const Decision& decision : log->decisions()) {
    if (decision.stream == *scheduler) {
      EXPECT_GE(decision.count, 2u);
      EXPECT_LT(decision.value, decision.count);
    }
    counts.insert(decision.count);
  }
  EXPECT_TRUE(counts.contains(0));  // raw draws too
  EXPECT_TRUE(log->find_stream("workload").has_value());
}

TEST(Choice, ReplayFromTheLogGivesTheSameTrace) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::uint64_t recorded_hash = 0;
    const auto log = recorded_log(seed, &recorded_hash);
    WorldConfig config = quiet_config(seed);
    config.replay_decisions = log;
    World world(config);
    const RunOutcome outcome = run_pinging(world);
    EXPECT_TRUE(outcome.ok()) << outcome.problem;
    EXPECT_EQ(outcome.trace_hash, recorded_hash) << "seed " << seed;
    EXPECT_EQ(world.unread_decisions(), 0u);
  }
}

TEST(Choice, ReplayReadsTheLogNotTheSeed) {
  // The log of seed 5 replayed in a world of seed 6 gives seed 5's run.
  std::uint64_t hash5 = 0;
  const auto log = recorded_log(5, &hash5);
  std::uint64_t hash6 = 0;
  recorded_log(6, &hash6);
  ASSERT_NE(hash5, hash6);
  EXPECT_EQ(replayed(6, log).trace_hash, hash5);
}

std::size_t first_pick(const DecisionLog& log) {
  const auto scheduler = log.find_stream("scheduler");
  SPOTCHECK_ASSERT_ABORT(scheduler.has_value());
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log.decisions()[i].stream == *scheduler) {
      return i;
    }
  }
  SPOTCHECK_ASSERT_ABORT(false);
  return 0;
}

TEST(Choice, AnEditedPickChangesTheRunOrIsRefused) {
  std::uint64_t hash = 0;
  const auto log = recorded_log(4, &hash);
  auto edited = std::make_shared<DecisionLog>(*log);
  const std::size_t index = first_pick(*edited);
  const Decision pick = edited->decisions()[index];
  edited->set_value(index, (pick.value + 1) % pick.count);
  const RunOutcome outcome = replayed(4, edited);
  EXPECT_TRUE(outcome.trace_hash != hash || outcome.problem.find("replay refused") != std::string::npos);
  EXPECT_NE(outcome.trace_hash, hash);
}

TEST(Choice, AnOutOfRangePickIsRefusedNamingTheDecision) {
  std::uint64_t hash = 0;
  const auto log = recorded_log(4, &hash);
  auto edited = std::make_shared<DecisionLog>(*log);
  const std::size_t index = first_pick(*edited);
  edited->set_value(index, edited->decisions()[index].count);
  const RunOutcome outcome = replayed(4, edited);
  EXPECT_EQ(outcome.status, RunStatus::failure);
  EXPECT_EQ(outcome.problem, "replay refused: " + describe_decision(*edited, index) + ": the index is out of range");
}

TEST(Choice, ARunThatAsksForMoreThanTheLogHoldsIsRefused) {
  std::uint64_t hash = 0;
  const auto log = recorded_log(4, &hash);
  auto shorter = std::make_shared<DecisionLog>();
  for (const std::string& name : log->stream_names()) {
    shorter->stream_index(name);
  }
  for (std::size_t i = 0; i + 1 < log->size(); ++i) {
    ASSERT_TRUE(shorter->append(log->decisions()[i]));
  }
  const RunOutcome outcome = replayed(4, shorter);
  EXPECT_EQ(outcome.status, RunStatus::failure);
  EXPECT_NE(outcome.problem.find("replay refused: decision log holds no decision"), std::string::npos) << outcome.problem;
}

TEST(Choice, ADrawWhereTheLogHoldsAPickIsRefused) {
  std::uint64_t hash = 0;
  const auto log = recorded_log(4, &hash);
  // The same decisions, every "scheduler" entry relabelled as a draw of "scheduler".
  auto relabelled = std::make_shared<DecisionLog>();
  for (const std::string& name : log->stream_names()) {
    relabelled->stream_index(name);
  }
  const std::size_t index = first_pick(*log);
  for (std::size_t i = 0; i < log->size(); ++i) {
    Decision decision = log->decisions()[i];
    if (i == index) {
      decision.count = 0;
    }
    ASSERT_TRUE(relabelled->append(decision));
  }
  const RunOutcome outcome = replayed(4, relabelled);
  EXPECT_EQ(outcome.status, RunStatus::failure);
  EXPECT_EQ(outcome.problem, "replay refused: " + describe_decision(*relabelled, index) + ": the run asks for a pick among " +
                                 std::to_string(log->decisions()[index].count));
}

// A lenient replay (shrinking, replay/shrink/log_shrink.h) refuses nothing: an out-of-range pick
// takes the last candidate, a log cut short is finished from the seeded streams, and a recording
// over it holds the decisions the run really took — which replay strictly to the same run.
RunOutcome leniently(std::uint64_t seed, std::shared_ptr<const DecisionLog> log, std::shared_ptr<const DecisionLog>* taken) {
  WorldConfig config = quiet_config(seed);
  config.replay_decisions = std::move(log);
  config.lenient_replay = true;
  config.record_decisions = true;
  World world(config);
  const RunOutcome outcome = run_pinging(world);
  EXPECT_EQ(world.unread_decisions(), 0u);
  *taken = world.decision_log();
  return outcome;
}

TEST(Choice, ALenientReplayAnswersWhatTheLogCannotAndRecordsWhatItTook) {
  std::uint64_t hash = 0;
  const auto log = recorded_log(4, &hash);
  std::shared_ptr<const DecisionLog> taken;
  EXPECT_EQ(leniently(4, log, &taken).trace_hash, hash) << "an unedited log is the same run";
  EXPECT_EQ(*taken, *log);

  auto edited = std::make_shared<DecisionLog>(*log);
  const std::size_t index = first_pick(*edited);
  edited->set_value(index, edited->decisions()[index].count + 5);  // out of range: the last candidate
  const RunOutcome clamped = leniently(4, edited, &taken);
  EXPECT_NE(clamped.status, RunStatus::failure) << clamped.problem;
  EXPECT_EQ(taken->decisions()[index].value, edited->decisions()[index].count - 1);
  EXPECT_EQ(replayed(4, taken).trace_hash, clamped.trace_hash) << "the recording replays strictly to the same run";

  auto shorter = std::make_shared<DecisionLog>();
  for (const std::string& name : log->stream_names()) {
    shorter->stream_index(name);
  }
  for (std::size_t i = 0; i < log->size() / 2; ++i) {
    ASSERT_TRUE(shorter->append(log->decisions()[i]));
  }
  const RunOutcome finished = leniently(4, shorter, &taken);
  EXPECT_NE(finished.status, RunStatus::failure) << finished.problem;
  EXPECT_GT(taken->size(), shorter->size()) << "the rest of the choices came from the seeded streams";
  EXPECT_EQ(replayed(4, taken).trace_hash, finished.trace_hash);
}

// A lenient replay answers a stream whose logged decisions ran out from the stream's own seeded
// sequence at the stream's position: never a value it already gave (an OwnerId drawn twice would
// be a failure of the replay's own making).
TEST(Choice, ALenientReplayContinuesAnExhaustedStreamAtItsPosition) {
  auto log = std::make_shared<DecisionLog>();
  const std::uint32_t x = log->stream_index("x");
  for (std::uint64_t v : {11u, 12u, 13u}) {
    ASSERT_TRUE(log->append(Decision{v, x, 0}));
  }
  Stream scheduler(9, "scheduler");
  UniformRandomStrategy strategy(scheduler.seeded());
  SeededChoiceSource seeded(strategy);
  ReplayingChoiceSource lenient(log, seeded, [](std::string why) { FAIL() << why; }, ReplayMode::kLenient);
  Stream stream(9, "x");
  stream.bind(0, &lenient);
  Stream expected(9, "x");
  std::vector<std::uint64_t> drawn;
  for (int i = 0; i < 5; ++i) {
    drawn.push_back(stream.next_u64());
  }
  std::vector<std::uint64_t> want = {11, 12, 13};
  for (int i = 0; i < 5; ++i) {
    const std::uint64_t v = expected.seeded().next_u64();
    if (i >= 3) {
      want.push_back(v);  // the seeded values at positions 3 and 4
    }
  }
  EXPECT_EQ(drawn, want);
}

TEST(Choice, TheDecisionLogIsBounded) {
  WorldConfig config = quiet_config(4);
  config.record_decisions = true;
  config.max_decisions = 10;
  World world(config);
  const RunOutcome outcome = run_pinging(world);
  EXPECT_EQ(outcome.status, RunStatus::failure);
  EXPECT_EQ(outcome.problem, "decision log bound exceeded (10 decisions)");
  EXPECT_EQ(world.decision_log()->size(), 10u);
}

TEST(Choice, TheLogsTextReadsBackToTheSameLog) {
  std::uint64_t hash = 0;
  const auto log = recorded_log(4, &hash);
  const std::string text = decision_log_text(*log);
  EXPECT_EQ(parse_decision_log(text), *log);
  EXPECT_EQ(replayed(4, std::make_shared<DecisionLog>(parse_decision_log(text))).trace_hash, hash);
  auto refusal = [](std::string_view bad) {
    try {
      parse_decision_log(bad);
    } catch (const DecisionLogError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal(text.substr(0, text.size() - 4)), "decision log line " + std::to_string(4 + log->stream_names().size() + log->size()) +
                                                         ": the file ends early (no \"end\" line)");
  EXPECT_EQ(refusal(text + "x\n"), "decision log line " + std::to_string(4 + log->stream_names().size() + log->size()) +
                                       ": text after \"end\"");
  EXPECT_EQ(refusal("spotcheck-decision-log 1\nstreams 1\nscheduler\ndecisions 1\n0 1 0\nend\n"),
            "decision log line 5: a pick is among at least 2 candidates");
  EXPECT_EQ(refusal("spotcheck-decision-log 1\nstreams 1\nscheduler\ndecisions 1\n1 0 0\nend\n"),
            "decision log line 5: expected a decimal number up to 0");
  EXPECT_EQ(refusal("spotcheck-decision-log 1\nstreams 2\na\na\ndecisions 0\nend\n"), "decision log line 4: stream 'a' is named twice");
  EXPECT_EQ(refusal("spotcheck-decision-log 1\nstreams 1\na\ndecisions 99999999\n"),
            "decision log line 4: expected a decimal number up to 4000000");
}

// Records every candidate the strategy is offered; picks the first.
struct Watching final : SchedulingStrategy {
  std::size_t pick(std::span<const ReadyCandidate> ready) override {
    offered.push_back(std::vector<ReadyCandidate>(ready.begin(), ready.end()));
    return 0;
  }
  std::vector<std::vector<ReadyCandidate>> offered;
};

WorldConfig watched_config(Watching** strategy) {
  WorldConfig config = quiet_config();
  config.make_strategy = [strategy](platform::Random&) {
    auto created = std::make_unique<Watching>();
    *strategy = created.get();
    return created;
  };
  return config;
}

TEST(Choice, TheStrategyIsNeverOfferedACancelledAction) {
  Watching* strategy = nullptr;
  World world(watched_config(&strategy));
  ActionId victim = 0;
  world.at(5, [&] { world.cancel(victim); });  // picked first: the strategy picks index 0
  victim = world.at(5, [] {});
  const ActionId other1 = world.at(5, [] {});
  const ActionId other2 = world.at(5, [] {});
  world.run_until(100, 100);
  ASSERT_NE(strategy, nullptr);
  ASSERT_EQ(strategy->offered.size(), 2u);  // 4 live candidates, then 2 (the victim is gone), then 1
  ASSERT_EQ(strategy->offered[1].size(), 2u);
  EXPECT_EQ(strategy->offered[1][0].action, other2);  // the ready order: the first pick moved the last entry forward
  EXPECT_EQ(strategy->offered[1][1].action, other1);
}

TEST(Choice, TheStrategySeesStableTaskIdsThatAreNeverReused) {
  Watching* strategy = nullptr;
  World world(watched_config(&strategy));
  const ProcessId node = world.add_process("n", 1, [](platform::Platform& p) {
    for (int wave = 0; wave < 4; ++wave) {  // short tasks end and new ones take their slots
      for (int i = 0; i < 3; ++i) {
        p.tasks.spawn("worker", [&p] { p.tasks.yield(); });
      }
      p.clock.sleep_until(p.clock.now_us() + 1'000);
    }
  });
  world.start(node);
  world.run_until(platform::seconds(1), 10'000);
  ASSERT_NE(strategy, nullptr);
  std::set<TaskId> seen;
  for (const auto& offer : strategy->offered) {
    for (const ReadyCandidate& candidate : offer) {
      ASSERT_EQ(candidate.kind == EntryKind::task || candidate.kind == EntryKind::task_timer, true);
      EXPECT_EQ(candidate.process, node);
      EXPECT_GT(candidate.task, 0u);
      seen.insert(candidate.task);
    }
  }
  // Twelve workers, each its own id (at most four slots are ever in use, so slots would repeat).
  EXPECT_GE(seen.size(), 12u);
}

}  // namespace
}  // namespace spotcheck::sim
