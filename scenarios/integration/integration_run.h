// One integration run: N real impl/location nodes in a real-time sim::World (steady clock, same
// fibers), each with its own Redis session in one fresh namespace; node faults from the scenario
// and store faults from the caller strike in real time; the property suite judges every event;
// a capacity audit and an owner audit of the rows Redis holds end the run.
//
//   IntegrationRequest request;
//   find_integration_scenario("lease-expiry", request.scenario);
//   request.redis.url = "redis://127.0.0.1:6379";
//   request.duration_us = platform::seconds(6);
//   IntegrationReport report = run_integration(request);
//   if (!report.setup_error.empty()) { ... unreachable, auth, namespace ... }
//   report.passed(); report.activity.takeovers; reports::format_redis_summary(report) (reports/redis_summary.h);
//
// Not reproducible (real time, real server): the seed fixes the workload's choices only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "faults/fault_plan.h"
#include "properties/audit/capacity_audit.h"
#include "properties/property_suite.h"
#include "properties/audit/activity_log.h"
#include "scenarios/integration/integration_config.h"
#include "scenarios/integration/node_redis_store.h"
#include "properties/audit/owner_audit.h"
#include "scenarios/integration/redis_target.h"
#include "sim/run_outcome.h"

namespace spotcheck::scenarios::integration {

// A fault of the store's host, driven by the caller (tests): `begin` runs at at_us, `end` at
// at_us + duration_us, both on the world's thread between steps (e.g. SIGSTOP / SIGCONT the
// redis-server, or make a proxy drop replies). A step blocked in a store call delays them by at
// most one command timeout.
//
// A fault outside the spec's contract (faults/out_of_contract.h: e.g. a restart without
// persistence, which loses acknowledged writes and issues StoreVersions and generations again)
// names its kind in `out_of_contract`: the report lists the assumption it breaks, and a run
// that fails after it failed only out of contract (IntegrationReport::failed_only_out_of_contract).
struct StoreFault {
  std::string what;
  TimeUs at_us = 0;
  TimeUs duration_us = 0;
  std::function<void()> begin;
  std::function<void()> end;
  std::optional<faults::FaultKind> out_of_contract;
};

struct IntegrationRequest {
  IntegrationScenarioConfig scenario;
  TimeUs duration_us = platform::seconds(5);  // traffic; the run lasts duration + scenario.drain_us
  std::uint64_t seed = 1;
  RedisTargetOptions redis;
  std::vector<StoreFault> store_faults;
  // Around every store call of every node (tests aim faults at single calls with them).
  StoreCallHooks store_hooks;
  // Polled before the run and between its slices (every kStopPollUs): non-zero stops the run
  // early, as if its time were up but without the end-of-run checks and audits; the value (a
  // signal number, e.g. SIGINT) is reported. The namespace is cleaned up as after any run.
  std::function<int()> stop_requested;
};

// How often a run polls stop_requested (a blocked store call can delay it by one command timeout).
inline constexpr TimeUs kStopPollUs = platform::millis(50);

// How the checkers' store clock (StoreNow = epoch_ms + world_us / 1000) lines up with Redis TIME.
// The checkers place some events (object.work, lease.lost) in store time through this mapping and
// compare them with StoreNow values Redis reported; they treat it as exact. It is set from one
// TIME read so that it never runs behind Redis and leads it by at most 1 ms + the read's round
// trip; the workload's acts are further apart than that (think time >= 5 ms), so no comparison
// can flip. Checked again at the end of the run (docs/integration.md, "Store time").
struct StoreClockMapping {
  std::int64_t epoch_ms = 0;
  TimeUs start_sample_us = 0;  // round trip of the TIME read at the start
  // At the end: mapped StoreNow minus Redis TIME, in ms (expected 0..1 + round trip).
  std::optional<std::int64_t> end_lead_ms;
  std::int64_t lead_max_ms = 0;  // the tolerance end_lead_ms was held against
  // 0 <= end_lead_ms <= lead_max_ms: the time-based checks judged with consistent clocks.
  bool consistent = false;
};

struct IntegrationReport {
  std::string setup_error;  // one line; nothing ran (bad URL, unreachable, auth, namespace)
  std::string scenario;
  std::uint64_t seed = 0;
  TimeUs duration_us = 0;
  std::uint32_t node_count = 0;
  std::string url;            // redacted
  std::string key_namespace;
  std::string namespace_outcome;  // removed / kept ... (namespace_cleanup.outcome)
  NamespaceCleanup namespace_cleanup;
  NamespaceStart namespace_start = NamespaceStart::empty;
  // Non-zero: stop_requested() returned this (a signal number) and the run stopped early, at
  // stopped_at_us of its clock (0: before it started).
  int stopped_by = 0;
  TimeUs stopped_at_us = 0;

  sim::RunOutcome run;
  std::vector<std::string> properties;  // the checkers that judged the run
  std::optional<properties::PropertyViolation> violation;
  std::vector<std::string> problem_context;  // rendered trace events up to the problem
  properties::CapacityAuditResult capacity;
  properties::OwnerAuditResult owners;
  properties::ActivityCounts activity;
  StoreClockMapping store_clock;
  std::vector<std::string> fault_log;        // "t=1.502s pause node-2 for 2.500s", ...
  std::vector<std::string> missing_activity;  // expectations of the scenario not met (warnings)
  // The out-of-contract store faults that struck, each "<kind>: <the assumption it breaks>".
  std::vector<std::string> out_of_contract;

  bool stopped() const { return stopped_by != 0; }
  // Setup fine, not stopped, run ended by time, no property violation, both audits clean, clocks consistent.
  bool passed() const;
  // The first reason the run did not pass, one line; empty when passed.
  std::string failure_reason() const;
  // The run ran to its end and did not pass, but an out-of-contract store fault struck: what
  // failed may depend on the assumption it broke (reported apart, as a campaign's
  // out-of-contract seeds are).
  bool failed_only_out_of_contract() const;
};

IntegrationReport run_integration(const IntegrationRequest& request);

// "SIGINT", "SIGTERM", else "signal N".
std::string signal_name(int signal_number);

}  // namespace spotcheck::scenarios::integration
