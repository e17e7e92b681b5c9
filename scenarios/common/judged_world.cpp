#include "scenarios/common/judged_world.h"

#include "faults/out_of_contract.h"
#include "impl/check/check.h"
#include "properties/audit/capacity_audit.h"
#include "properties/audit/query_audit.h"
#include "properties/registry.h"
#include "scenarios/common/seed_outcome.h"

namespace spotcheck::scenarios {

properties::PropertyOptions JudgedWorld::property_options() {
  properties::PropertyOptions options;
  options.store_epoch_ms = sim::StoreServerConfig{}.epoch_ms;  // the store server's clock
  return options;
}

sim::WorldConfig JudgedWorld::world_config(const SeedRequest& request) {
  sim::WorldConfig config;
  config.seed = request.seed;
  config.trace.keep_events = request.keep_trace;
  config.record_decisions = request.record_decisions;
  config.replay_decisions = request.replay_decisions;
  config.lenient_replay = request.lenient_replay;
  return config;
}

JudgedWorld::JudgedWorld(const SeedRequest& request, const std::vector<std::string>& properties,
                         const properties::PropertyOptions& options)
    : _request(request),
      _invariant_guard(&spotcheck::check::throw_invariant_violation),
      _suite(options),
      _world(world_config(request)),
      _store(_world, sim::StoreServerConfig{}) {
  if (properties.empty()) {
    _suite.add_all();
  }
  for (const auto& name : properties) {
    const bool added = _suite.add(name);
    SPOTCHECK_ASSERT_ABORT(added && "unknown or repeated property name");
    (void)added;
  }
  _suite.attach(_world);
}

JudgedWorld::~JudgedWorld() { _suite.detach(); }

void JudgedWorld::install_faults(const std::vector<sim::ProcessId>& nodes, faults::FaultPlan plan,
                                 platform::TimeUs faults_stop_us, const faults::SwarmShape& swarm) {
  SPOTCHECK_ASSERT_ABORT(_injector == nullptr && "one fault plan per seed");
  if (_request.swarm) {
    plan = faults::FaultPlan::swarm(_world.stream("swarm"), faults_stop_us, swarm);
  }
  if (_request.out_of_contract != 0) {
    plan = faults::with_out_of_contract(plan, _world.stream("faults.out-of-contract"), _request.out_of_contract,
                                        _request.swarm);
  }
  plan.faults_stop_us = faults_stop_us;
  if (_request.keep_trace) {
    _plan_text = plan.describe();
  }
  _injector = std::make_unique<faults::FaultInjector>(_world, _store, nodes, plan,
                                                      _relocation_store ? &*_relocation_store : nullptr);
  _injector->install();
}

sim::StoreServer& JudgedWorld::relocation_store() {
  if (!_relocation_store.has_value()) {
    SPOTCHECK_ASSERT_ABORT(_injector == nullptr && "ask for the Relocation Store's server before installing faults");
    sim::StoreServerConfig config;
    config.routing_id = sim::kRelocationStoreRoutingId;
    config.name = "relocation-store";
    config.clock_offset_ms =
        _world.stream("relocation-store.clock").between(-kRelocationClockSkewMaxMs, kRelocationClockSkewMaxMs);
    _relocation_store.emplace(_world, config);
  }
  return *_relocation_store;
}

void JudgedWorld::start_staggered(const std::vector<sim::ProcessId>& nodes, platform::TimeUs gap_us) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const sim::ProcessId pid = nodes[i];
    _world.at(static_cast<platform::TimeUs>(i) * gap_us, [this, pid] { _world.start(pid); });
  }
}

SeedOutcome JudgedWorld::run_and_judge(platform::TimeUs end_us, std::uint64_t max_steps) {
  const sim::RunOutcome run = _world.run_until(end_us, max_steps);
  std::optional<Violation> violation;
  if (run.ok()) {
    _suite.finish(properties::RunEnd{_world.now_us(), _world.trace().size()});  // e.g. liveness
  }
  if (const auto& found = _suite.violation()) {
    violation = Violation{found->property, found->message, found->time_us, found->event_index, found->subjects};
  } else if (run.ok()) {
    // The store itself: every capacity counter equals the sum of the allocations of the authority
    // rows on its node (§3.3) — also for writes whose events were never seen (killed nodes, lost
    // replies).
    const auto audit = properties::audit_capacity_counters(_store.location_engine(), platform::kNever);
    if (auto problem = audit.violation()) {
      violation = Violation{"capacity", "end-of-run store audit: " + *problem, _world.now_us(), _world.trace().size()};
    }
    // The operational queries (§7.4) answer what the store holds: every lookup, every list page.
    if (!violation.has_value()) {
      const auto queries = properties::audit_location_queries(_store.location_engine(), platform::kNever);
      if (auto problem = queries.violation()) {
        violation = Violation{"location-query", "end-of-run query audit: " + *problem, _world.now_us(),
                              _world.trace().size()};
      }
    }
  }
  SeedOutcome outcome = make_seed_outcome(_request.seed, run, _world.trace(), _request.keep_trace, violation);
  if (violation.has_value() && !outcome.violation.has_value()) {
    outcome.violation = std::move(violation);  // found by an end-of-run check
  }
  outcome.marks = _world.marks();
  outcome.fault_plan = _plan_text;
  return with_decisions(std::move(outcome), _world.decision_log(), _world.unread_decisions());
}

}  // namespace spotcheck::scenarios
