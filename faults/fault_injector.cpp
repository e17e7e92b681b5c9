#include "faults/fault_injector.h"

#include <algorithm>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/harness_events.h"

namespace spotcheck::faults {

namespace {

// Bound on the faults of one kind in one run (every loop has a bound).
constexpr int kFaultsPerKindMax = 10'000;

}  // namespace

FaultInjector::FaultInjector(sim::World& world, sim::StoreServer& store, std::vector<sim::ProcessId> nodes,
                             FaultPlan plan, sim::StoreServer* relocation_store)
    : _world(world),
      _store(store),
      _relocation_store(relocation_store),
      _nodes(std::move(nodes)),
      _plan(plan),
      _random(world.stream("faults")) {
  SPOTCHECK_ASSERT_ABORT(!_nodes.empty());
  SPOTCHECK_ASSERT_ABORT(_relocation_store != &_store);
}

FaultInjector::~FaultInjector() {
  if (_crash_points != nullptr) {
    _world.remove_observer(*_crash_points);
  }
}

TimeUs FaultInjector::next_gap(TimeUs mean_gap_us) { return gap_from(_random, mean_gap_us); }

TimeUs FaultInjector::gap_from(platform::Random& random, TimeUs mean_gap_us) {
  SPOTCHECK_ASSERT_ABORT(mean_gap_us > 0);
  // Uniform in [mean/2, 3*mean/2]: irregular, yet bounded and cheap to draw.
  return random.between(mean_gap_us / 2, mean_gap_us + mean_gap_us / 2) + 1;
}

sim::ProcessId FaultInjector::pick_node() { return pick_node(_random); }

sim::ProcessId FaultInjector::pick_node(platform::Random& random) { return _nodes[random.below(_nodes.size())]; }

void FaultInjector::install() {
  SPOTCHECK_ASSERT_ABORT(!_installed);
  _installed = true;
  _world.record_event(kinds::kFaultsPlan, sim::events::FaultsPlan{.stop_us = _plan.faults_stop_us});
  _store.set_faults(store_faults());
  if (_plan.enabled(FaultKind::kNetworkLoss) || _plan.enabled(FaultKind::kLinkTail)) {
    configure_store_links(store_link_config());
  }
  if (node_links_faulty()) {
    configure_node_links(node_link_config());
  }
  apply_clock_drift();
  schedule_store_outages(_store, _random);
  schedule_store_stalls(_store, _world.stream("faults.stall"));
  schedule_node_kills();
  schedule_node_pauses();
  schedule_partitions(_store, _random);
  schedule_node_partitions();
  schedule_node_link_stalls();
  schedule_relocation_store_faults();
  schedule_store_clock_jumps();
  schedule_store_lost_writes();
  schedule_node_clock_steps();
  if (_plan.enabled(FaultKind::kNodeCrashPoint)) {
    _crash_points = std::make_unique<CrashPoints>(_world, _nodes, _plan.node_crash_point,
                                                  _plan.node_crash_point_down_max_us, _plan.faults_stop_us);
    _world.add_observer(*_crash_points);
  }
  _world.at(_plan.faults_stop_us, [this] { stop_all_faults(); });
}

sim::StoreFaults FaultInjector::store_faults() const {
  return sim::StoreFaults{_plan.store_request_loss,       _plan.store_reply_loss,
                          _plan.store_reply_delay,        _plan.store_delete_hold_max_us,
                          _plan.store_late_apply,         _plan.store_late_apply_max_us,
                          _plan.store_renew_loss,         _plan.node_pause_on_reply,
                          _plan.node_pause_on_reply_max_us, _plan.node_freeze_drop,
                          _plan.node_freeze_drop_max_us,  _plan.store_scan_expiry,
                          _plan.store_payload_damage};
}

// The Relocation Store's own server: the plan's store faults, from streams of its own, so its
// outages, stalls and partitions fall independently of the Location Store's (issue 11).
void FaultInjector::schedule_relocation_store_faults() {
  if (_relocation_store == nullptr) {
    return;
  }
  _relocation_store->set_faults(store_faults());
  const std::string name = "faults." + _relocation_store->name();
  schedule_store_outages(*_relocation_store, _world.stream(name));
  schedule_store_stalls(*_relocation_store, _world.stream(name + ".stall"));
  schedule_partitions(*_relocation_store, _world.stream(name + ".partition"));
}

sim::LinkConfig FaultInjector::with_tail(sim::LinkConfig config) const {
  if (_plan.enabled(FaultKind::kLinkTail)) {
    config.tail_probability = _plan.link_tail;
    config.tail_max_us = std::max(_plan.link_tail_max_us, config.latency_max_us);
  }
  return config;
}

sim::LinkConfig FaultInjector::store_link_config() const {
  sim::LinkConfig config;
  config.loss_probability = _plan.network_loss;
  return with_tail(config);
}

sim::LinkConfig FaultInjector::node_link_config() const {
  sim::LinkConfig config;
  config.loss_probability = _plan.node_message_loss;
  config.latency_max_us = std::max(config.latency_max_us, _plan.node_message_delay_max_us);
  return with_tail(config);
}

bool FaultInjector::node_links_faulty() const {
  return _plan.enabled(FaultKind::kNodeMessageLoss) || _plan.enabled(FaultKind::kNodeMessageDelay) ||
         _plan.enabled(FaultKind::kLinkTail);
}

std::vector<sim::StoreServer*> FaultInjector::servers() const {
  std::vector<sim::StoreServer*> all{&_store};
  if (_relocation_store != nullptr) {
    all.push_back(_relocation_store);
  }
  return all;
}

// Every node's connection to each store server, both directions.
void FaultInjector::configure_store_links(const sim::LinkConfig& config) {
  for (sim::StoreServer* server : servers()) {
    configure_store_links(*server, config);
  }
}

void FaultInjector::configure_store_links(sim::StoreServer& server, const sim::LinkConfig& config) {
  for (const sim::ProcessId node : _nodes) {
    const auto rid = _world.process_routing_id(node);
    _world.network().set_link_config(rid, server.routing_id(), config);
    _world.network().set_link_config(server.routing_id(), rid, config);
  }
}

// One direction between two nodes holds its messages for a window. From its own stream, so
// turning it on leaves every other kind's draws as they were.
void FaultInjector::schedule_node_link_stalls() {
  if (!_plan.enabled(FaultKind::kNodeLinkStall) || _nodes.size() < 2) {
    return;
  }
  platform::Random& random = _world.stream("faults.link_stall");
  TimeUs t = gap_from(random, _plan.node_link_stall_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const std::size_t a = random.below(_nodes.size());
    const std::size_t b = (a + 1 + random.below(_nodes.size() - 1)) % _nodes.size();
    SPOTCHECK_ASSERT_ABORT(a != b);
    const TimeUs length = std::min(random.between(1, _plan.node_link_stall_length_us), _plan.faults_stop_us - t);
    _world.at(t, [this, from = _nodes[a], to = _nodes[b], until_us = t + length] {
      _world.network().stall(_world.process_routing_id(from), _world.process_routing_id(to), until_us);
    });
    t += length + gap_from(random, _plan.node_link_stall_gap_us);
  }
}

// Every connection between two distinct nodes, both directions.
void FaultInjector::configure_node_links(const sim::LinkConfig& config) {
  for (const sim::ProcessId a : _nodes) {
    for (const sim::ProcessId b : _nodes) {
      if (a != b) {
        _world.network().set_link_config(_world.process_routing_id(a), _world.process_routing_id(b), config);
      }
    }
  }
}

void FaultInjector::schedule_node_partitions() {
  if (!_plan.enabled(FaultKind::kNodePartition) || _nodes.size() < 2) {
    return;
  }
  TimeUs t = next_gap(_plan.node_partition_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const sim::ProcessId a = pick_node();
    sim::ProcessId b = pick_node();
    if (b == a) {
      b = _nodes[(static_cast<std::size_t>(std::find(_nodes.begin(), _nodes.end(), a) - _nodes.begin()) + 1) %
                 _nodes.size()];
    }
    SPOTCHECK_ASSERT_ABORT(a != b);
    const bool one_way = _random.chance(0.5);
    const TimeUs length = std::min(_random.between(1, _plan.node_partition_length_us), _plan.faults_stop_us - t);
    _world.at(t, [this, a, b, one_way] {
      const sim::RoutingId from = _world.process_routing_id(a);
      const sim::RoutingId to = _world.process_routing_id(b);
      if (one_way) {
        _world.network().partition_one_way(from, to);
      } else {
        const sim::RoutingId side_a[] = {from};
        const sim::RoutingId side_b[] = {to};
        _world.network().partition(side_a, side_b);
      }
    });
    _world.at(t + length, [this, a, b] {
      _world.network().heal(_world.process_routing_id(a), _world.process_routing_id(b));
    });
    t += length + next_gap(_plan.node_partition_gap_us);
  }
}

void FaultInjector::apply_clock_drift() {
  if (!_plan.enabled(FaultKind::kClockDrift)) {
    return;
  }
  for (const sim::ProcessId node : _nodes) {
    _world.set_clock_drift_ppm(node, _random.between(-_plan.clock_drift_max_ppm, _plan.clock_drift_max_ppm));
  }
}

// The Location Store's clock jumps forward now and then, and stays ahead (out of contract).
void FaultInjector::schedule_store_clock_jumps() {
  if (!_plan.enabled(FaultKind::kStoreClockJump)) {
    return;
  }
  platform::Random& random = _world.stream("faults.clock-jump");
  TimeUs t = gap_from(random, _plan.store_clock_jump_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i, t += gap_from(random, _plan.store_clock_jump_gap_us)) {
    const std::int64_t by_ms = random.between(1, _plan.store_clock_jump_max_us / platform::kMicrosPerMilli + 1);
    _world.at(t, [this, by_ms] { _store.jump_clock(by_ms); });
  }
}

// The Location Store fails over to a lagging replica now and then (out of contract): the writes of
// the last drawn lag are lost.
void FaultInjector::schedule_store_lost_writes() {
  if (!_plan.enabled(FaultKind::kStoreLostWrites)) {
    return;
  }
  _store.keep_write_journal(_plan.store_lost_writes_lag_us);
  platform::Random& random = _world.stream("faults.lost-writes");
  TimeUs t = gap_from(random, _plan.store_lost_writes_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i, t += gap_from(random, _plan.store_lost_writes_gap_us)) {
    const TimeUs lag_us = random.between(1, _plan.store_lost_writes_lag_us);
    _world.at(t, [this, lag_us] { _store.lose_writes(lag_us); });
  }
}

// A node's local clock steps back or forward now and then (out of contract).
void FaultInjector::schedule_node_clock_steps() {
  if (!_plan.enabled(FaultKind::kNodeClockStep)) {
    return;
  }
  platform::Random& random = _world.stream("faults.clock-step");
  TimeUs t = gap_from(random, _plan.node_clock_step_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i, t += gap_from(random, _plan.node_clock_step_gap_us)) {
    const sim::ProcessId node = pick_node(random);
    const TimeUs by_us = random.between(1, _plan.node_clock_step_max_us) * (random.chance(0.5) ? -1 : 1);
    _world.at(t, [this, node, by_us] { _world.step_clock(node, by_us); });
  }
}

// Stalls draw from their own stream, so turning them on leaves every other kind's draws as they
// were. A stall and a refusing outage do not nest: the first to begin sets the mode, and the
// first end ends it.
void FaultInjector::schedule_store_stalls(sim::StoreServer& server, platform::Random& random) {
  if (!_plan.enabled(FaultKind::kStoreStall)) {
    return;
  }
  TimeUs t = gap_from(random, _plan.store_stall_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const TimeUs length = std::min(random.between(1, _plan.store_stall_length_us), _plan.faults_stop_us - t);
    _world.at(t, [&server] { server.begin_outage(sim::OutageMode::kStall); });
    _world.at(t + length, [&server] { server.end_outage(); });
    t += length + gap_from(random, _plan.store_stall_gap_us);
  }
}

void FaultInjector::schedule_store_outages(sim::StoreServer& server, platform::Random& random) {
  if (!_plan.enabled(FaultKind::kStoreOutage)) {
    return;
  }
  TimeUs t = gap_from(random, _plan.store_outage_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const TimeUs length = std::min(random.between(1, _plan.store_outage_length_us), _plan.faults_stop_us - t);
    _world.at(t, [&server] { server.begin_outage(); });
    _world.at(t + length, [&server] { server.end_outage(); });
    t += length + gap_from(random, _plan.store_outage_gap_us);
  }
}

void FaultInjector::schedule_node_kills() {
  if (!_plan.enabled(FaultKind::kNodeKill)) {
    return;
  }
  TimeUs t = next_gap(_plan.node_kill_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const sim::ProcessId node = pick_node();
    const TimeUs down = _random.between(1, std::max<TimeUs>(1, _plan.node_down_us));
    _world.at(t, [this, node] {
      const auto state = _world.process_state(node);
      if (state == sim::ProcessState::running || state == sim::ProcessState::paused) {
        _world.kill(node);
      }
    });
    // The restart may fall after faults stop: a dead node always comes back.
    _world.at(t + down, [this, node] {
      if (_world.process_state(node) == sim::ProcessState::dead) {
        _world.start(node);
      }
    });
    t += next_gap(_plan.node_kill_gap_us);
  }
}

void FaultInjector::schedule_node_pauses() {
  if (!_plan.enabled(FaultKind::kNodePause)) {
    return;
  }
  TimeUs t = next_gap(_plan.node_pause_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const sim::ProcessId node = pick_node();
    const TimeUs length = std::min(_random.between(1, _plan.node_pause_max_us), _plan.faults_stop_us - t);
    _world.at(t, [this, node, length] {
      if (_world.process_state(node) == sim::ProcessState::running) {
        _world.pause(node, length);
      }
    });
    t += next_gap(_plan.node_pause_gap_us);
  }
}

void FaultInjector::schedule_partitions(sim::StoreServer& server, platform::Random& random) {
  if (!_plan.enabled(FaultKind::kNetworkPartition)) {
    return;
  }
  TimeUs t = gap_from(random, _plan.partition_gap_us);
  for (int i = 0; i < kFaultsPerKindMax && t < _plan.faults_stop_us; ++i) {
    const sim::ProcessId node = pick_node(random);
    const bool one_way = random.chance(0.5);
    const bool node_to_store = random.chance(0.5);
    const TimeUs length = std::min(random.between(1, _plan.partition_length_us), _plan.faults_stop_us - t);
    _world.at(t, [this, &server, node, one_way, node_to_store] {
      const auto rid = _world.process_routing_id(node);
      const auto store = server.routing_id();
      if (!one_way) {
        const sim::RoutingId a[] = {rid};
        const sim::RoutingId b[] = {store};
        _world.network().partition(a, b);
      } else if (node_to_store) {
        _world.network().partition_one_way(rid, store);
      } else {
        _world.network().partition_one_way(store, rid);
      }
    });
    _world.at(t + length, [this, &server, node] {
      _world.network().heal(_world.process_routing_id(node), server.routing_id());
    });
    t += length + gap_from(random, _plan.partition_gap_us);
  }
}

void FaultInjector::stop_all_faults() {
  for (sim::StoreServer* server : servers()) {
    server->set_faults(sim::StoreFaults{});
    server->end_outage();
  }
  _world.network().heal_all();
  if (node_links_faulty()) {
    configure_node_links(sim::LinkConfig{});
  }
  configure_store_links(sim::LinkConfig{});
  _world.record(kinds::kFaultsStopped, {});
}

}  // namespace spotcheck::faults
