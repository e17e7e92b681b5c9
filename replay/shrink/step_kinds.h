// The step kinds every family's list (shrink_steps.h) is made of: a fault kind off, a probability
// halved, a gap doubled, a window halved, the clock drift halved, a shorter safety phase, think
// times doubled, fewer of something countable, a workload choice made never. Each works on any
// scenario config with a fault plan (`plan`, `faults_stop_us`, `liveness_window_us`) and a
// workload with think times and a traffic stop — the three families' configs all have them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "faults/fault_plan.h"
#include "impl/check/check.h"
#include "replay/shrink/fixed_plan.h"
#include "replay/shrink/shrink_steps.h"
#include "sim/time/time_text.h"

namespace spotcheck::replay::steps {

using faults::FaultKind;
using faults::FaultPlan;
using platform::TimeUs;
using scenarios::Violation;

template <class Config>
FaultPlan plan_of(const Config& config) {
  return config.plan(config.faults_stop_us);
}

template <class Config>
ShrinkStepOf<Config> fault_off(FaultKind kind) {
  const std::string name = std::string(faults::to_string(kind)) + " off";
  return {name, [kind, name](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            const FaultPlan plan = plan_of(config);
            if (!plan.enabled(kind)) {
              return std::nullopt;
            }
            return ShrinkCandidateOf<Config>{name, with_fixed_plan(config, plan.without(kind))};
          }};
}

// Every fault kind off, one step each, in the catalogue's order.
template <class Config>
void add_fault_kinds_off(std::vector<ShrinkStepOf<Config>>& steps) {
  for (const auto& info : faults::all_fault_kinds()) {
    steps.push_back(fault_off<Config>(info.kind));
  }
}

// A probability halved, while it stays above the floor.
template <class Config>
ShrinkStepOf<Config> halve_probability(FaultKind kind, double FaultPlan::*field) {
  const std::string name = std::string(faults::to_string(kind)) + " halved";
  return {name, [kind, field](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            FaultPlan plan = plan_of(config);
            const double before = plan.*field;
            if (before / 2 < kProbabilityFloor) {
              return std::nullopt;
            }
            plan.*field = before / 2;
            return ShrinkCandidateOf<Config>{std::string(faults::to_string(kind)) + " " + sim::probability_text(before) +
                                                 " -> " + sim::probability_text(plan.*field),
                                             with_fixed_plan(config, plan)};
          }};
}

// A window kind's mean gap doubled, while a window can still start in the safety phase.
template <class Config>
ShrinkStepOf<Config> double_gap(FaultKind kind, TimeUs FaultPlan::*gap) {
  const std::string name = std::string(faults::to_string(kind)) + " gap doubled";
  return {name, [kind, gap](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            FaultPlan plan = plan_of(config);
            const TimeUs before = plan.*gap;
            if (!plan.enabled(kind) || before >= config.faults_stop_us) {
              return std::nullopt;
            }
            plan.*gap = before * 2;
            return ShrinkCandidateOf<Config>{std::string(faults::to_string(kind)) + " gap " +
                                                 sim::seconds_short(before) + " -> " + sim::seconds_short(plan.*gap),
                                             with_fixed_plan(config, plan)};
          }};
}

// A window kind's longest window halved (whole milliseconds, never below the floor).
template <class Config>
ShrinkStepOf<Config> halve_window(FaultKind kind, TimeUs FaultPlan::*length, const char* what) {
  const std::string name = std::string(faults::to_string(kind)) + " " + what + " halved";
  return {name, [kind, length, what](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            FaultPlan plan = plan_of(config);
            const TimeUs before = plan.*length;
            const std::int64_t half_ms = before / platform::kMicrosPerMilli / 2;
            if (!plan.enabled(kind) || half_ms < kWindowFloorMs) {
              return std::nullopt;
            }
            plan.*length = platform::millis(half_ms);
            return ShrinkCandidateOf<Config>{std::string(faults::to_string(kind)) + " " + what + " " +
                                                 sim::seconds_short(before) + " -> " + sim::seconds_short(plan.*length),
                                             with_fixed_plan(config, plan)};
          }};
}

template <class Config>
ShrinkStepOf<Config> halve_clock_drift() {
  return {"clock-drift halved", [](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            FaultPlan plan = plan_of(config);
            const std::int64_t before = plan.clock_drift_max_ppm;
            if (before / 2 < 1) {
              return std::nullopt;
            }
            plan.clock_drift_max_ppm = before / 2;
            return ShrinkCandidateOf<Config>{"clock-drift " + std::to_string(before) + "ppm -> " +
                                                 std::to_string(plan.clock_drift_max_ppm) + "ppm",
                                             with_fixed_plan(config, plan)};
          }};
}

// The gentler-faults steps every family ends its list with: four probabilities halved, the
// four window kinds' gaps doubled and windows halved, the clock drift halved.
template <class Config>
void add_gentler_faults(std::vector<ShrinkStepOf<Config>>& steps) {
  steps.push_back(halve_probability<Config>(FaultKind::kStoreRequestLost, &FaultPlan::store_request_loss));
  steps.push_back(halve_probability<Config>(FaultKind::kStoreReplyLost, &FaultPlan::store_reply_loss));
  steps.push_back(halve_probability<Config>(FaultKind::kStoreReplyDelayed, &FaultPlan::store_reply_delay));
  steps.push_back(halve_probability<Config>(FaultKind::kNetworkLoss, &FaultPlan::network_loss));
  steps.push_back(double_gap<Config>(FaultKind::kStoreOutage, &FaultPlan::store_outage_gap_us));
  steps.push_back(double_gap<Config>(FaultKind::kNodeKill, &FaultPlan::node_kill_gap_us));
  steps.push_back(double_gap<Config>(FaultKind::kNodePause, &FaultPlan::node_pause_gap_us));
  steps.push_back(double_gap<Config>(FaultKind::kNetworkPartition, &FaultPlan::partition_gap_us));
  steps.push_back(halve_window<Config>(FaultKind::kStoreOutage, &FaultPlan::store_outage_length_us, "length"));
  steps.push_back(halve_window<Config>(FaultKind::kNodeKill, &FaultPlan::node_down_us, "down time"));
  steps.push_back(halve_window<Config>(FaultKind::kNodePause, &FaultPlan::node_pause_max_us, "longest pause"));
  steps.push_back(halve_window<Config>(FaultKind::kNetworkPartition, &FaultPlan::partition_length_us, "length"));
  steps.push_back(halve_clock_drift<Config>());
}

// The safety phase ends at `stop_us`; traffic keeps its distance to the end of the safety phase
// (so a rule like "requests end in the liveness window" that held still holds).
template <class Config>
std::optional<ShrinkCandidateOf<Config>> with_faults_stop(const Config& config, TimeUs stop_us) {
  if (stop_us >= config.faults_stop_us || stop_us < platform::seconds(kFaultsPhaseFloorSeconds)) {
    return std::nullopt;
  }
  Config c = with_fixed_plan(config, plan_of(config));
  const TimeUs cut_us = config.faults_stop_us - stop_us;
  c.faults_stop_us = stop_us;
  c.workload.traffic_stop_us = std::max<TimeUs>(0, config.workload.traffic_stop_us - cut_us);
  SPOTCHECK_ASSERT_ABORT(c.workload.traffic_stop_us <= c.faults_stop_us + c.liveness_window_us);
  return ShrinkCandidateOf<Config>{
      "safety phase " + sim::seconds_short(config.faults_stop_us) + " -> " + sim::seconds_short(stop_us), std::move(c)};
}

// Faults stop right after the violation (in whole seconds), when it came in the safety phase; then
// the safety phase halved.
template <class Config>
void add_shorter_safety_phase(std::vector<ShrinkStepOf<Config>>& steps) {
  steps.push_back({"safety phase cut after the violation",
                   [](const Config& config, const Violation& violation) -> std::optional<ShrinkCandidateOf<Config>> {
                     if (violation.time_us >= config.faults_stop_us) {
                       return std::nullopt;
                     }
                     const TimeUs whole_seconds = violation.time_us / platform::kMicrosPerSecond + 1;
                     return with_faults_stop(config, platform::seconds(whole_seconds));
                   }});
  steps.push_back({"safety phase halved", [](const Config& config, const Violation&) {
                     return with_faults_stop(config,
                                             platform::seconds(config.faults_stop_us / platform::kMicrosPerSecond / 2));
                   }});
}

// Fewer requests: the workload's think times doubled, while the longest stays within the cap.
template <class Config>
ShrinkStepOf<Config> slower_workload() {
  return {"think times doubled", [](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            Config c = config;
            auto& w = c.workload;
            if (w.think_max_us * 2 > platform::millis(kThinkMaxCeilingMs) || w.think_max_us <= 0) {
              return std::nullopt;
            }
            const std::string before = sim::seconds_short(w.think_min_us) + "-" + sim::seconds_short(w.think_max_us);
            w.think_min_us *= 2;
            w.think_max_us *= 2;
            return ShrinkCandidateOf<Config>{"think times " + before + " -> " + sim::seconds_short(w.think_min_us) +
                                                 "-" + sim::seconds_short(w.think_max_us),
                                             std::move(c)};
          }};
}

// Fewer of something countable (`field` picks it out of a config), never below `floor`: half of it
// (halve), or one less.
template <class Config>
ShrinkStepOf<Config> fewer(const char* what, std::function<std::uint32_t&(Config&)> field, std::uint32_t floor,
                           bool halve) {
  const std::string name = std::string(halve ? "half the " : "one less of the ") + what;
  return {name, [=](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            Config c = config;
            std::uint32_t& value = field(c);
            const std::uint32_t before = value;
            const std::uint32_t after = halve ? before / 2 : before - 1;
            if (before <= floor || after < floor || (!halve && before / 2 == after)) {
              return std::nullopt;  // (one less than 2 is what halving tried already)
            }
            value = after;
            return ShrinkCandidateOf<Config>{std::string(what) + " " + std::to_string(before) + " -> " +
                                                 std::to_string(after),
                                             std::move(c)};
          }};
}

// Both: half, then one less.
template <class Config>
void add_fewer(std::vector<ShrinkStepOf<Config>>& steps, const char* what,
               std::function<std::uint32_t&(Config&)> field, std::uint32_t floor) {
  steps.push_back(fewer<Config>(what, field, floor, true));
  steps.push_back(fewer<Config>(what, field, floor, false));
}

// A workload choice made never: its probability or weight (`field`) set to 0.
template <class Config, class T>
ShrinkStepOf<Config> choice_off(const char* what, std::function<T&(Config&)> field) {
  const std::string name = std::string(what) + " off";
  return {name, [=](const Config& config, const Violation&) -> std::optional<ShrinkCandidateOf<Config>> {
            Config c = config;
            T& value = field(c);
            if (value <= T{0}) {
              return std::nullopt;
            }
            value = T{0};
            return ShrinkCandidateOf<Config>{name, std::move(c)};
          }};
}

}  // namespace spotcheck::replay::steps
