#include "replay/shrink/shrink_steps.h"

#include "faults/fault_plan.h"
#include "impl/check/check.h"
#include "replay/shrink/fixed_plan.h"
#include "sim/time/time_text.h"

namespace spotcheck::replay {

namespace {

using faults::FaultKind;
using faults::FaultPlan;
using platform::TimeUs;
using scenarios::Violation;
using scenarios::authority::AuthorityScenarioConfig;

FaultPlan plan_of(const AuthorityScenarioConfig& config) { return config.plan(config.faults_stop_us); }

ShrinkStepKind fault_off(FaultKind kind) {
  const std::string name = std::string(faults::to_string(kind)) + " off";
  return {name, [kind, name](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
            const FaultPlan plan = plan_of(config);
            if (!plan.enabled(kind)) {
              return std::nullopt;
            }
            return ShrinkCandidate{name, with_fixed_plan(config, plan.without(kind))};
          }};
}

// A probability halved, while it stays above the floor.
ShrinkStepKind halve_probability(FaultKind kind, double FaultPlan::*field) {
  const std::string name = std::string(faults::to_string(kind)) + " halved";
  return {name,
          [kind, field](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
            FaultPlan plan = plan_of(config);
            const double before = plan.*field;
            if (before / 2 < kProbabilityFloor) {
              return std::nullopt;
            }
            plan.*field = before / 2;
            return ShrinkCandidate{std::string(faults::to_string(kind)) + " " + sim::probability_text(before) + " -> " +
                                       sim::probability_text(plan.*field),
                                   with_fixed_plan(config, plan)};
          }};
}

// A window kind's mean gap doubled, while a window can still start in the safety phase.
ShrinkStepKind double_gap(FaultKind kind, TimeUs FaultPlan::*gap) {
  const std::string name = std::string(faults::to_string(kind)) + " gap doubled";
  return {name, [kind, gap](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
            FaultPlan plan = plan_of(config);
            const TimeUs before = plan.*gap;
            if (!plan.enabled(kind) || before >= config.faults_stop_us) {
              return std::nullopt;
            }
            plan.*gap = before * 2;
            return ShrinkCandidate{std::string(faults::to_string(kind)) + " gap " + sim::seconds_short(before) + " -> " +
                                       sim::seconds_short(plan.*gap),
                                   with_fixed_plan(config, plan)};
          }};
}

// A window kind's longest window halved (whole milliseconds, never below the floor).
ShrinkStepKind halve_window(FaultKind kind, TimeUs FaultPlan::*length, const char* what) {
  const std::string name = std::string(faults::to_string(kind)) + " " + what + " halved";
  return {
      name,
      [kind, length, what](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
        FaultPlan plan = plan_of(config);
        const TimeUs before = plan.*length;
        const std::int64_t half_ms = before / platform::kMicrosPerMilli / 2;
        if (!plan.enabled(kind) || half_ms < kWindowFloorMs) {
          return std::nullopt;
        }
        plan.*length = platform::millis(half_ms);
        return ShrinkCandidate{std::string(faults::to_string(kind)) + " " + what + " " + sim::seconds_short(before) + " -> " +
                                   sim::seconds_short(plan.*length),
                               with_fixed_plan(config, plan)};
      }};
}

ShrinkStepKind halve_clock_drift() {
  return {"clock-drift halved",
          [](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
            FaultPlan plan = plan_of(config);
            const std::int64_t before = plan.clock_drift_max_ppm;
            if (before / 2 < 1) {
              return std::nullopt;
            }
            plan.clock_drift_max_ppm = before / 2;
            return ShrinkCandidate{
                "clock-drift " + std::to_string(before) + "ppm -> " + std::to_string(plan.clock_drift_max_ppm) + "ppm",
                with_fixed_plan(config, plan)};
          }};
}

// The safety phase ends at `stop_us`; traffic keeps its distance to the end of the safety phase.
std::optional<ShrinkCandidate> with_faults_stop(const AuthorityScenarioConfig& config, TimeUs stop_us) {
  if (stop_us >= config.faults_stop_us || stop_us < platform::seconds(kFaultsPhaseFloorSeconds)) {
    return std::nullopt;
  }
  AuthorityScenarioConfig c = with_fixed_plan(config, plan_of(config));
  const TimeUs cut_us = config.faults_stop_us - stop_us;
  c.faults_stop_us = stop_us;
  c.workload.traffic_stop_us = std::max<TimeUs>(0, config.workload.traffic_stop_us - cut_us);
  SPOTCHECK_ASSERT_ABORT(c.workload.traffic_stop_us <= c.faults_stop_us + c.liveness_window_us);
  return ShrinkCandidate{"safety phase " + sim::seconds_short(config.faults_stop_us) + " -> " + sim::seconds_short(stop_us),
                         std::move(c)};
}

// Faults stop right after the violation (in whole seconds), when it came in the safety phase.
ShrinkStepKind end_faults_after_violation() {
  return {"safety phase cut after the violation",
          [](const AuthorityScenarioConfig& config, const Violation& violation) -> std::optional<ShrinkCandidate> {
            if (violation.time_us >= config.faults_stop_us) {
              return std::nullopt;
            }
            const TimeUs whole_seconds = violation.time_us / platform::kMicrosPerSecond + 1;
            return with_faults_stop(config, platform::seconds(whole_seconds));
          }};
}

ShrinkStepKind halve_faults_phase() {
  return {"safety phase halved", [](const AuthorityScenarioConfig& config, const Violation&) {
            return with_faults_stop(config, platform::seconds(config.faults_stop_us / platform::kMicrosPerSecond / 2));
          }};
}

// Fewer of something countable: half of it first, then one less.
ShrinkStepKind fewer(const char* what, std::uint32_t AuthorityScenarioConfig::*direct,
                     std::uint32_t scenarios::authority::AuthorityWorkload::*in_workload, bool halve) {
  const std::string name = std::string(halve ? "half the " : "one less of the ") + what;
  return {name, [=](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
            AuthorityScenarioConfig c = config;
            std::uint32_t& value = direct != nullptr ? c.*direct : c.workload.*in_workload;
            const std::uint32_t before = value;
            const std::uint32_t after = halve ? before / 2 : before - 1;
            if (before <= 1 || after < 1 || (!halve && before / 2 == after)) {
              return std::nullopt;  // (one less than 2 is what halving tried already)
            }
            value = after;
            return ShrinkCandidate{std::string(what) + " " + std::to_string(before) + " -> " + std::to_string(after),
                                   std::move(c)};
          }};
}

// Fewer requests: the workload's think times doubled, while the longest stays within the cap.
ShrinkStepKind slower_workload() {
  return {"think times doubled", [](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
            AuthorityScenarioConfig c = config;
            auto& w = c.workload;
            if (w.think_max_us * 2 > platform::millis(kThinkMaxCeilingMs) || w.think_max_us <= 0) {
              return std::nullopt;
            }
            const std::string before = sim::seconds_short(w.think_min_us) + "-" + sim::seconds_short(w.think_max_us);
            w.think_min_us *= 2;
            w.think_max_us *= 2;
            return ShrinkCandidate{"think times " + before + " -> " + sim::seconds_short(w.think_min_us) + "-" +
                                       sim::seconds_short(w.think_max_us),
                                   std::move(c)};
          }};
}

// A workload choice made never (its probability 0).
ShrinkStepKind workload_choice_off(const char* what, double scenarios::authority::AuthorityWorkload::*probability) {
  return {std::string(what) + " off", [=](const AuthorityScenarioConfig& config, const Violation&) -> std::optional<ShrinkCandidate> {
            if (config.workload.*probability <= 0) {
              return std::nullopt;
            }
            AuthorityScenarioConfig c = config;
            c.workload.*probability = 0;
            return ShrinkCandidate{std::string(what) + " off", std::move(c)};
          }};
}

}  // namespace

std::vector<ShrinkStepKind> shrink_steps() {
  std::vector<ShrinkStepKind> steps;
  for (const auto& info : faults::all_fault_kinds()) {
    steps.push_back(fault_off(info.kind));
  }
  steps.push_back(end_faults_after_violation());
  steps.push_back(halve_faults_phase());
  steps.push_back(fewer("nodes", &AuthorityScenarioConfig::node_count, nullptr, true));
  steps.push_back(fewer("nodes", &AuthorityScenarioConfig::node_count, nullptr, false));
  steps.push_back(fewer("objects", nullptr, &scenarios::authority::AuthorityWorkload::object_count, true));
  steps.push_back(fewer("objects", nullptr, &scenarios::authority::AuthorityWorkload::object_count, false));
  steps.push_back(workload_choice_off("deletes", &scenarios::authority::AuthorityWorkload::delete_probability));
  steps.push_back(workload_choice_off("aborts", &scenarios::authority::AuthorityWorkload::abort_probability));
  steps.push_back(workload_choice_off("messages", &scenarios::authority::AuthorityWorkload::message_probability));
  steps.push_back(slower_workload());
  steps.push_back(halve_probability(FaultKind::kStoreRequestLost, &FaultPlan::store_request_loss));
  steps.push_back(halve_probability(FaultKind::kStoreReplyLost, &FaultPlan::store_reply_loss));
  steps.push_back(halve_probability(FaultKind::kStoreReplyDelayed, &FaultPlan::store_reply_delay));
  steps.push_back(halve_probability(FaultKind::kNetworkLoss, &FaultPlan::network_loss));
  steps.push_back(double_gap(FaultKind::kStoreOutage, &FaultPlan::store_outage_gap_us));
  steps.push_back(double_gap(FaultKind::kNodeKill, &FaultPlan::node_kill_gap_us));
  steps.push_back(double_gap(FaultKind::kNodePause, &FaultPlan::node_pause_gap_us));
  steps.push_back(double_gap(FaultKind::kNetworkPartition, &FaultPlan::partition_gap_us));
  steps.push_back(halve_window(FaultKind::kStoreOutage, &FaultPlan::store_outage_length_us, "length"));
  steps.push_back(halve_window(FaultKind::kNodeKill, &FaultPlan::node_down_us, "down time"));
  steps.push_back(halve_window(FaultKind::kNodePause, &FaultPlan::node_pause_max_us, "longest pause"));
  steps.push_back(halve_window(FaultKind::kNetworkPartition, &FaultPlan::partition_length_us, "length"));
  steps.push_back(halve_clock_drift());
  return steps;
}

}  // namespace spotcheck::replay
