#include "scenarios/integration/integration_run.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <memory>

#include "faults/out_of_contract.h"
#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "scenarios/common/restart_request.h"
#include "scenarios/integration/node_redis_store.h"
#include "sim/time/time_text.h"
#include "sim/world.h"

namespace spotcheck::scenarios::integration {

namespace {

using platform::millis;
using platform::seconds;

constexpr platform::RoutingId kFirstNodeRoutingId = 0x00a1'0000;
constexpr TimeUs kNodeStartGapUs = millis(100);
constexpr TimeUs kRestartDelayUs = seconds(1);
// The store clock mapping may lead Redis by 2 ms of rounding plus the TIME reads' round trips.
constexpr std::int64_t kStoreClockRoundingMs = 2;
// A real thread is late to wake by scheduling jitter (a loaded 2-core machine: tens of ms).
constexpr TimeUs kLivenessSlackUs = millis(250);
constexpr std::uint64_t kMaxSteps = 500'000'000;
constexpr std::int64_t kNodeTimeoutMs = 500;
constexpr TimeUs kAuditTimeoutUs = seconds(10);
// Problem context: events shown, and events walked back to find them.
constexpr std::size_t kContextEvents = 24;
constexpr std::uint64_t kContextWalkMax = 20'000;

std::string routing_id_hex(platform::RoutingId rid) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(rid));
  return buffer;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// Scheduler noise the context does not need.
bool is_noise(std::string_view kind) {
  return kind.starts_with("wake.") || kind.starts_with("task.") || kind == kinds::kSpawn || kind.starts_with("net.") ||
         kind == kinds::kAction;
}

std::vector<std::string> context_before(const sim::Trace& trace, std::uint64_t problem_index) {
  std::vector<std::string> lines;
  if (trace.size() == 0) {
    return lines;
  }
  std::uint64_t index = std::min<std::uint64_t>(problem_index, trace.size() - 1);
  for (std::uint64_t walked = 0; walked < kContextWalkMax && lines.size() < kContextEvents; ++walked) {
    if (!is_noise(trace.event(index).kind)) {
      lines.push_back(trace.render(index));
    }
    if (index == 0) {
      break;
    }
    --index;
  }
  std::reverse(lines.begin(), lines.end());
  return lines;
}

// Times at which a periodic fault strikes, each leaving `tail_us` before the end of traffic.
std::vector<TimeUs> strike_times(TimeUs first_us, TimeUs every_us, TimeUs tail_us, TimeUs duration_us) {
  std::vector<TimeUs> times;
  constexpr int kStrikesMax = 1'000;
  for (TimeUs t = first_us; t + tail_us <= duration_us && times.size() < kStrikesMax; t += every_us) {
    times.push_back(t);
    if (every_us <= 0) {
      break;
    }
  }
  return times;
}

// Everything that lives exactly as long as one world.
class WorldRun {
 public:
  WorldRun(const IntegrationRequest& request, RedisTarget& target, IntegrationReport& report)
      : _request(request), _config(request.scenario), _target(target), _report(report) {
    _config.workload.traffic_stop_us = request.duration_us;
  }

  void run() {
    sim::WorldConfig world_config;
    world_config.seed = _request.seed;
    world_config.real_time = true;
    world_config.clock_offset_max_us = 0;     // local clocks = world time (no drift in real time)
    world_config.network.link = sim::LinkConfig{0, 0, 0.0};  // in-process transport
    world_config.trace.keep_events = true;
    // Declared before the world, destroyed after it; detached below before the world goes.
    std::unique_ptr<properties::PropertySuite> suite;
    std::vector<authority::AuthorityNodeEnv> envs(_config.node_count);
    sim::World world(world_config);
    world.add_observer(_activity);

    if (stop_requested()) {
      world.remove_observer(_activity);
      return;
    }
    const RedisTarget::TimeSampling start_sampling = _target.sample_time([&world] { return world.now_us(); });
    const std::optional<RedisTimeSample>& start = start_sampling.best;
    if (!start.has_value()) {
      _report.setup_error = start_sampling.error;
      world.remove_observer(_activity);
      return;
    }
    // Redis read its clock at some world time in [before_us, after_us]: anchoring at before_us and
    // rounding up never puts the mapping behind Redis (store ms at world t <= epoch + t / 1000).
    StoreClockMapping& mapping = _report.store_clock;
    mapping.epoch_ms = ceil_div(start->redis_us - start->before_us, platform::kMicrosPerMilli);
    mapping.start_sample_us = start->after_us - start->before_us;


    properties::PropertyOptions options;
    options.store_epoch_ms = mapping.epoch_ms;
    options.liveness.slack_us = kLivenessSlackUs;
    options.liveness.clock_drift_ppm_max = 0;
    options.store_ground_truth = false;  // a real Redis gives no store.applied account
    suite = std::make_unique<properties::PropertySuite>(options);
    suite->add_all();
    for (std::string_view name : suite->names()) {
      _report.properties.emplace_back(name);
    }
    suite->attach(world);

    add_nodes(world, envs);
    schedule_faults(world);
    const TimeUs end_us = _request.duration_us + _config.drain_us;
    // In slices, so that a stop request (a signal) is seen within kStopPollUs.
    for (;;) {
      _report.run = world.run_until(std::min(end_us, world.now_us() + kStopPollUs), kMaxSteps - world.steps());
      if (_report.run.status != sim::RunStatus::time_limit || world.now_us() >= end_us) {
        break;
      }
      if (stop_requested()) {
        break;
      }
    }
    if (_report.stopped()) {
      _report.stopped_at_us = world.now_us();
      _report.violation = suite->violation();
      if (_report.violation.has_value()) {
        _report.problem_context = context_before(world.trace(), _report.violation->event_index);
      }
      _report.activity = _activity.counts();
      suite->detach();
      world.remove_observer(_activity);
      return;
    }
    if (_report.run.ok()) {
      suite->finish(properties::RunEnd{world.now_us(), world.trace().size()});
    }
    _report.violation = suite->violation();
    if (_report.violation.has_value()) {
      _report.problem_context = context_before(world.trace(), _report.violation->event_index);
    } else if (_report.run.problem_event.has_value()) {
      _report.problem_context = context_before(world.trace(), *_report.run.problem_event);
    }

    const std::optional<RedisTimeSample> end = _target.sample_time([&world] { return world.now_us(); }).best;
    if (end.has_value()) {
      // Mapped at the read's latest possible instant vs. Redis: never negative unless the clocks
      // drifted apart (a wall-clock step, or a remote server's oscillator).
      const std::int64_t mapped_ms = mapping.epoch_ms + end->after_us / platform::kMicrosPerMilli;
      mapping.end_lead_ms = mapped_ms - end->redis_us / platform::kMicrosPerMilli;
      mapping.lead_max_ms = kStoreClockRoundingMs + ceil_div(mapping.start_sample_us, platform::kMicrosPerMilli) +
                            ceil_div(end->after_us - end->before_us, platform::kMicrosPerMilli);
      // The owner's acts on one object are a think time apart: the mapping's error must be smaller.
      const bool finer_than_think = mapping.lead_max_ms * platform::kMicrosPerMilli < _config.workload.think_min_us;
      mapping.consistent = finer_than_think && *mapping.end_lead_ms >= 0 && *mapping.end_lead_ms <= mapping.lead_max_ms;
    }
    // The audits read the store while every node is parked (the world is not running).
    const TimeUs audit_deadline_us = _target.clock().now_us() + kAuditTimeoutUs;
    _report.capacity = properties::audit_capacity_counters(_target.location(), audit_deadline_us);
    _report.owners = properties::audit_owner_rows(_target.location(), _activity, audit_deadline_us, _target.namespace_was_empty());
    _report.activity = _activity.counts();
    suite->detach();
    world.remove_observer(_activity);
  }

 private:
  // True (and noted in the report) once the caller asks the run to stop.
  bool stop_requested() {
    if (_report.stopped_by == 0 && _request.stop_requested) {
      _report.stopped_by = _request.stop_requested();
    }
    return _report.stopped_by != 0;
  }

  void add_nodes(sim::World& world, std::vector<authority::AuthorityNodeEnv>& envs) {
    for (std::uint32_t i = 0; i < _config.node_count; ++i) {
      const platform::RoutingId rid = kFirstNodeRoutingId + i;
      authority::AuthorityNodeEnv* env = &envs[i];
      const sim::ProcessId pid = world.add_process("node-" + std::to_string(i), rid,
                                                   [env](platform::Platform& p) { authority::run_authority_node(p, *env); });
      env->config = &_config.protocol;
      env->workload = &_config.workload;
      env->routing_id_hex = routing_id_hex(rid);
      store::redis::RedisStoreOptions node_options = _target.node_options();
      node_options.connect_timeout_ms = kNodeTimeoutMs;
      node_options.command_timeout_ms = kNodeTimeoutMs;
      const TimeUs jitter_us = _config.store_call_jitter_max_us;
      const StoreCallHooks* hooks = &_request.store_hooks;
      env->make_store = [&world, pid, node_options, jitter_us, hooks]() -> std::unique_ptr<store::LocationStore> {
        // A new session per host run: its own connection, on this node's clock.
        return std::make_unique<NodeRedisStore>(node_options, world.platform(pid), jitter_us, hooks);
      };
      env->request_restart = restart_later(world, pid, kRestartDelayUs);
      _nodes.push_back(pid);
      world.at(static_cast<TimeUs>(i) * kNodeStartGapUs, [&world, pid] { world.start(pid); });
    }
  }

  // The process the next node fault strikes: the busiest live owner, else round robin.
  sim::ProcessId fault_target(std::size_t strike) const {
    if (const auto busiest = _activity.busiest_owner_node()) {
      return static_cast<sim::ProcessId>(*busiest);
    }
    return _nodes[strike % _nodes.size()];
  }

  void schedule_faults(sim::World& world) {
    const NodeFaultPlan& plan = _config.faults;
    std::vector<TimeUs> pauses;
    std::vector<TimeUs> kills;
    if (plan.pauses()) {
      pauses = strike_times(plan.pause_first_us, plan.pause_every_us, _config.fault_tail_us, _request.duration_us);
    }
    if (plan.kills()) {
      kills = strike_times(plan.kill_first_us, plan.kill_every_us, _config.fault_tail_us, _request.duration_us);
    }
    _faults_open = pauses.size() + kills.size() + _request.store_faults.size();
    for (std::size_t k = 0; k < pauses.size(); ++k) {
      world.at(pauses[k], [this, &world, k, pause_us = plan.pause_us] {
        const sim::ProcessId pid = fault_target(k);
        if (world.process_state(pid) != sim::ProcessState::running) {
          log(world, "pause skipped: " + world.process_name(pid) + " is " +
                         std::string(sim::to_string(world.process_state(pid))));
          fault_ended(world);
          return;
        }
        world.pause(pid, pause_us);
        log(world, "pause " + world.process_name(pid) + " for " + sim::seconds_fixed(pause_us, 3));
        world.at(world.now_us() + pause_us, [this, &world] { fault_ended(world); });
      });
    }
    for (std::size_t k = 0; k < kills.size(); ++k) {
      world.at(kills[k], [this, &world, k, down_us = plan.down_us] {
        const sim::ProcessId pid = fault_target(k);
        if (world.process_state(pid) != sim::ProcessState::running) {
          fault_ended(world);
          return;
        }
        world.kill(pid);
        log(world, "kill " + world.process_name(pid) + ", new host run in " + sim::seconds_fixed(down_us, 3));
        world.at(world.now_us() + down_us, [this, &world, pid] {
          if (world.process_state(pid) == sim::ProcessState::dead) {
            world.start(pid);
          }
          fault_ended(world);
        });
      });
    }
    for (const StoreFault& fault : _request.store_faults) {
      // The end is scheduled by the begin, so it never runs first (a step blocked in a store call
      // can make both due at once) and the fault lasts its full duration.
      world.at(fault.at_us, [this, &world, &fault] {
        fault.begin();
        log(world, fault.what + " begins");
        note_out_of_contract(fault);
        world.at(world.now_us() + fault.duration_us, [this, &world, &fault] {
          fault.end();
          log(world, fault.what + " ends");
          fault_ended(world);
        });
      });
    }
    if (_faults_open == 0) {
      world.at(0, [&world] { world.record(kinds::kFaultsStopped, {}); });
    }
  }

  // The liveness phase begins when the last fault ended: every request started from then on must
  // end before its deadline.
  void fault_ended(sim::World& world) {
    SPOTCHECK_ASSERT_ABORT(_faults_open > 0);
    if (--_faults_open == 0) {
      world.record(kinds::kFaultsStopped, {});
      log(world, "every fault has ended (liveness phase)");
    }
  }

  void note_out_of_contract(const StoreFault& fault) {
    if (!fault.out_of_contract.has_value()) {
      return;
    }
    const std::string text = std::string(faults::to_string(*fault.out_of_contract)) + ": " +
                             faults::out_of_contract_assumption(*fault.out_of_contract);
    if (std::find(_report.out_of_contract.begin(), _report.out_of_contract.end(), text) ==
        _report.out_of_contract.end()) {
      _report.out_of_contract.push_back(text);
    }
  }

  void log(const sim::World& world, const std::string& what) {
    _report.fault_log.push_back("t=" + sim::seconds_fixed(world.now_us(), 3) + " " + what);
  }

  const IntegrationRequest& _request;
  IntegrationScenarioConfig _config;
  RedisTarget& _target;
  IntegrationReport& _report;
  properties::ActivityLog _activity;
  std::vector<sim::ProcessId> _nodes;
  std::size_t _faults_open = 0;  // planned faults not yet over
};

void note_missing_activity(const IntegrationScenarioConfig& config, IntegrationReport& report) {
  const properties::ActivityCounts& a = report.activity;
  if (a.leases_registered == 0) {
    report.missing_activity.push_back("no owner lease was registered");
  }
  if (a.commits == 0) {
    report.missing_activity.push_back("no object was created");
  }
  if (a.requests_ended == 0) {
    report.missing_activity.push_back("no request ended");
  }
  if (config.expects_takeover && a.takeovers == 0) {
    report.missing_activity.push_back("no takeover (NewOwner) happened");
  }
}

}  // namespace

bool IntegrationReport::passed() const { return failure_reason().empty(); }

bool IntegrationReport::failed_only_out_of_contract() const {
  return setup_error.empty() && !stopped() && !out_of_contract.empty() && !passed();
}

std::string IntegrationReport::failure_reason() const {
  if (!setup_error.empty()) {
    return setup_error;
  }
  if (stopped()) {
    return "interrupted by " + signal_name(stopped_by);
  }
  if (violation.has_value()) {
    return "property " + violation->property + " violated: " + violation->message;
  }
  if (!run.ok()) {
    return "the run failed: " + run.problem;
  }
  if (run.status != sim::RunStatus::time_limit) {
    return "the run ended early (" + std::string(sim::to_string(run.status)) + ")";
  }
  if (auto text = capacity.violation()) {
    return *text;
  }
  if (auto text = owners.violation()) {
    return *text;
  }
  if (!store_clock.consistent) {
    return "the run's clock and Redis TIME drifted apart (lead " +
           (store_clock.end_lead_ms ? std::to_string(*store_clock.end_lead_ms) + " ms" : std::string("unknown")) +
           "): the time-based checks are not conclusive";
  }
  return {};
}

std::string signal_name(int signal_number) {
  if (signal_number == SIGINT) {
    return "SIGINT";
  }
  if (signal_number == SIGTERM) {
    return "SIGTERM";
  }
  return "signal " + std::to_string(signal_number);
}

IntegrationReport run_integration(const IntegrationRequest& request) {
  SPOTCHECK_ASSERT_ABORT(request.scenario.node_count >= 1);
  SPOTCHECK_ASSERT_ABORT(request.duration_us > 0);
  IntegrationReport report;
  report.scenario = request.scenario.name;
  report.seed = request.seed;
  report.duration_us = request.duration_us;
  report.node_count = request.scenario.node_count;
  if (auto invalid = spotcheck::location::validate(request.scenario.protocol)) {
    report.setup_error = "invalid protocol timing: " + invalid->message;
    return report;
  }
  if (request.stop_requested) {
    report.stopped_by = request.stop_requested();
    if (report.stopped()) {
      return report;  // nothing written
    }
  }
  RedisTarget::Opened opened = RedisTarget::open(request.redis);
  if (opened.target == nullptr) {
    report.setup_error = opened.error;
    return report;
  }
  RedisTarget& target = *opened.target;
  report.url = target.url_redacted();
  report.key_namespace = target.key_namespace();
  report.namespace_start = target.namespace_start();
  {
    WorldRun world_run(request, target, report);
    world_run.run();
  }
  if (report.setup_error.empty() && !report.stopped()) {
    note_missing_activity(request.scenario, report);
  }
  report.namespace_cleanup = target.finish();
  report.namespace_outcome = report.namespace_cleanup.outcome;
  return report;
}

}  // namespace spotcheck::scenarios::integration
