#include "scenarios/synthetic/synthetic_workload.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "impl/check/check.h"
#include "scenarios/synthetic/synthetic_node.h"

namespace spotcheck::scenarios::synthetic {
namespace {

constexpr std::uint32_t kMaxNodes = 1'000;
constexpr std::uint32_t kMaxFaults = 100'000;

}  // namespace

sim::WorldConfig synthetic_world_config(std::uint64_t seed, const SyntheticConfig& config) {
  sim::WorldConfig world;
  world.seed = seed;
  world.network = config.network;
  world.trace.keep_events = config.keep_trace_events;
  world.guard_page_stacks = config.guard_page_stacks;
  world.clock_drift_ppm_max = config.clock_drift_ppm_max;
  world.draw_clock_drift = (config.fault_kinds & kClockDrift) != 0;
  world.test_only_perturb_tie_break_at_step = config.test_only_perturb_tie_break_at_step;
  world.record_decisions = config.record_decisions;
  world.replay_decisions = config.replay_decisions;
  world.lenient_replay = config.lenient_replay;
  return world;
}

SyntheticWorkload::SyntheticWorkload(sim::World& world, const SyntheticConfig& config)
    : world_(world), config_(config) {
  SPOTCHECK_ASSERT_ABORT(config_.node_count >= 2);
  SPOTCHECK_ASSERT_ABORT(config_.node_count <= kMaxNodes);
  SPOTCHECK_ASSERT_ABORT(config_.fault_count <= kMaxFaults);
  peers_.resize(config_.node_count);
  for (std::uint32_t node = 0; node < config_.node_count; ++node) {
    for (std::uint32_t other = 0; other < config_.node_count; ++other) {
      if (other != node) {
        peers_[node].push_back(other + 1);
      }
    }
  }
  for (std::uint32_t node = 0; node < config_.node_count; ++node) {
    const std::vector<platform::RoutingId>& peers = peers_[node];
    const SyntheticConfig& shared = config_;
    nodes_.push_back(world_.add_process("n" + std::to_string(node + 1), node + 1,
                                        [&shared, &peers](platform::Platform& p) {
                                          run_synthetic_node(p, shared, peers);
                                        }));
  }
  for (const sim::ProcessId node : nodes_) {
    world_.start(node);
  }
  world_.add_observer(checker_);
  schedule_faults();
}

SyntheticWorkload::~SyntheticWorkload() { world_.remove_observer(checker_); }

void SyntheticWorkload::schedule_faults() {
  std::array<FaultKind, 7> all = {kKillRestart, kRestart, kPause, kPartition, kOneWay, kDisconnect, kClockDrift};
  std::vector<FaultKind> enabled;
  for (const FaultKind kind : all) {
    if ((config_.fault_kinds & kind) != 0) {
      enabled.push_back(kind);
    }
  }
  if (enabled.empty()) {
    return;
  }
  platform::Random& random = world_.stream("faults");
  const std::uint32_t n = config_.node_count;
  sim::World* world = &world_;
  for (std::uint32_t fault = 0; fault < config_.fault_count; ++fault) {
    const TimeUs when_us = random.between(config_.duration_us / 10, config_.duration_us * 9 / 10);
    const FaultKind kind = enabled[random.below(enabled.size())];
    const auto a = static_cast<std::uint32_t>(random.below(n));
    const auto b = static_cast<std::uint32_t>((a + 1 + random.below(n - 1)) % n);
    SPOTCHECK_ASSERT_ABORT(a != b);
    const TimeUs lasting_us = random.between(platform::millis(1), std::max(platform::millis(1), config_.fault_duration_max_us));
    const sim::ProcessId node_a = nodes_[a];
    const platform::RoutingId rid_a = a + 1;
    const platform::RoutingId rid_b = b + 1;
    switch (kind) {
      case kKillRestart:
        world_.at(when_us, [world, node_a] { world->kill(node_a); });
        world_.at(when_us + lasting_us, [world, node_a] { world->start(node_a); });
        break;
      case kRestart:
        world_.at(when_us, [world, node_a] { world->restart(node_a); });
        break;
      case kPause:
        world_.at(when_us, [world, node_a, lasting_us] { world->pause(node_a, lasting_us); });
        break;
      case kPartition:
        world_.at(when_us, [world, rid_a, rid_b] {
          const platform::RoutingId side_a[] = {rid_a};
          const platform::RoutingId side_b[] = {rid_b};
          world->network().partition(side_a, side_b);
        });
        world_.at(when_us + lasting_us, [world, rid_a, rid_b] { world->network().heal(rid_a, rid_b); });
        break;
      case kOneWay:
        world_.at(when_us, [world, rid_a, rid_b] { world->network().partition_one_way(rid_a, rid_b); });
        world_.at(when_us + lasting_us, [world, rid_a, rid_b] { world->network().heal(rid_a, rid_b); });
        break;
      case kDisconnect:
        world_.at(when_us, [world, rid_a, rid_b] { world->network().disconnect(rid_a, rid_b); });
        world_.at(when_us + lasting_us, [world, rid_a, rid_b] { world->network().reconnect(rid_a, rid_b); });
        break;
      case kClockDrift: {
        const std::int64_t ppm = random.between(-config_.clock_drift_ppm_max, config_.clock_drift_ppm_max);
        world_.at(when_us, [world, node_a, ppm] { world->set_clock_drift_ppm(node_a, ppm); });
        break;
      }
      default:
        SPOTCHECK_ASSERT_ABORT(false);
        break;
    }
    ++faults_scheduled_;
  }
}

SyntheticOutcome run_synthetic_seed(std::uint64_t seed, const SyntheticConfig& config) {
  sim::World world(synthetic_world_config(seed, config));
  SyntheticOutcome outcome;
  outcome.seed = seed;
  {
    SyntheticWorkload workload(world, config);
    outcome.run = world.run_until(config.duration_us, config.max_steps);
    outcome.fifo_checks = workload.checker().checked();
  }
  outcome.trace = world.take_trace();
  outcome.decision_log = world.decision_log();
  outcome.unread_decisions = world.unread_decisions();
  return outcome;
}

}  // namespace spotcheck::scenarios::synthetic
