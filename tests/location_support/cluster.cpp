#include "tests/location_support/cluster.h"

#include <gtest/gtest.h>

#include <variant>

#include "impl/location/messaging/operation_id.h"
#include "impl/records/keys.h"

namespace spotcheck::location::creation::testing {

namespace {

constexpr std::uint64_t kStepsMax = 50'000'000;

std::string outcome_of(const store::WriteResult& result) {
  if (std::holds_alternative<store::Applied>(result)) {
    return "applied";
  }
  if (std::holds_alternative<store::Conflict>(result)) {
    return "conflict";
  }
  if (std::holds_alternative<store::StoreError>(result)) {
    return "store_error";
  }
  return "indeterminate";
}

}  // namespace

std::vector<records::ObjectCapability> default_capabilities() {
  return {
      {records::ObjectKind::kActor, "Player", records::CapabilityPolicy::kSnapshot, true, 0},
      {records::ObjectKind::kUserSpot, "Room", records::CapabilityPolicy::kRecreate, false, 0},
      {records::ObjectKind::kUserSpot, "Lobby", records::CapabilityPolicy::kRecreate, false, 0},
  };
}

store::Key actor_key(std::string_view id) { return records::authority_preimage(records::AuthorityKind::kActor, id); }
store::Key spot_key(std::string_view id) { return records::authority_preimage(records::AuthorityKind::kSpot, id); }

// Forwards to the node's simulated store client, runs the write hooks and logs every write.
class Cluster::LoggingStore final : public store::LocationStore {
 public:
  LoggingStore(Cluster& cluster, std::size_t node, std::unique_ptr<store::LocationStore> inner)
      : _cluster(cluster), _node(node), _inner(std::move(inner)) {}
  store::ReadResult read(const store::Key& key, store::DeadlineUs deadline_us) override {
    return _inner->read(key, deadline_us);
  }
  store::WriteResult write(const store::WriteRequest& request, store::DeadlineUs deadline_us) override {
    if (_cluster.before_write) {
      _cluster.before_write(_node, request);
    }
    store::WriteResult result = _inner->write(request, deadline_us);
    _cluster._writes.push_back(LoggedWrite{_node, request, outcome_of(result)});
    if (_cluster.after_write) {
      _cluster.after_write(_node, request, result);
    }
    return result;
  }
  store::ScanResult scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) override {
    return _inner->scan(request, deadline_us);
  }

 private:
  Cluster& _cluster;
  std::size_t _node;
  std::unique_ptr<store::LocationStore> _inner;
};

// Forwards to the node's simulated Relocation Store client and runs the remove hook.
class Cluster::HookedRelocation final : public store::RelocationStore {
 public:
  HookedRelocation(Cluster& cluster, std::size_t node, std::unique_ptr<store::RelocationStore> inner)
      : _cluster(cluster), _node(node), _inner(std::move(inner)) {}
  store::PutResult put(const store::PayloadPut& request, store::DeadlineUs deadline_us) override {
    if (_cluster.before_relocation_put) {
      _cluster.before_relocation_put(_node, request);
    }
    return _inner->put(request, deadline_us);
  }
  store::GetResult get(const store::Key& reference, store::DeadlineUs deadline_us) override {
    return _inner->get(reference, deadline_us);
  }
  store::DeleteResult remove(const store::Key& reference, store::DeadlineUs deadline_us) override {
    if (_cluster.before_relocation_remove) {
      _cluster.before_relocation_remove(_node, reference);
    }
    return _inner->remove(reference, deadline_us);
  }

 private:
  Cluster& _cluster;
  std::size_t _node;
  std::unique_ptr<store::RelocationStore> _inner;
};

Cluster::Cluster(ClusterOptions options) : _options(std::move(options)), _suite([] {
  properties::PropertyOptions property_options;
  property_options.store_epoch_ms = sim::StoreServerConfig{}.epoch_ms;
  return property_options;
}()) {
  _suite.add_all();
  sim::WorldConfig config;
  config.seed = _options.seed;
  _world = std::make_unique<sim::World>(config);
  _store = std::make_unique<sim::StoreServer>(*_world, sim::StoreServerConfig{});
  _suite.attach(*_world);
  _slots.resize(_options.nodes.size());
  for (std::size_t i = 0; i < _slots.size(); ++i) {
    _slots[i].rid = _options.first_rid + i;
    _slots[i].spec = _options.nodes[i];
    _slots[i].pid = _world->add_process("node-" + std::to_string(i), _slots[i].rid,
                                        [this, i](platform::Platform& p) { node_main(i, p); });
  }
}

Cluster::~Cluster() { tear_down(); }

void Cluster::tear_down() {
  if (_world == nullptr) {
    return;
  }
  _suite.detach();
  _store.reset();
  _world.reset();
}

std::string Cluster::rid_hex(std::size_t i) const { return messaging::routing_id_hex(_slots[i].rid); }

records::MeshNodeDescriptorRecord Cluster::descriptor(std::size_t i) const {
  records::MeshNodeDescriptorRecord d;
  d.mesh_name = _slots[i].spec.mesh;
  d.routing_id_hex = rid_hex(i);
  d.lifecycle_generation = 1;
  d.endpoint = "sim://" + d.routing_id_hex;
  d.object_role = _slots[i].spec.role;
  if (d.object_role == records::ObjectRole::kServer) {
    d.entry_spot_id = "entry:" + d.mesh_name + ":" + d.routing_id_hex;
    d.object_capabilities = _slots[i].spec.capabilities;
  }
  d.placement_weight = 100;
  d.capacity.actors.limit = _slots[i].spec.actors_limit;
  d.state = records::DescriptorState::kServing;
  d.security_identity = "spiffe://zlink/test/" + d.routing_id_hex;
  return d;
}

void Cluster::node_main(std::size_t i, platform::Platform& platform) {
  LoggingStore store(*this, i, _store->location_client(_slots[i].pid));
  HookedRelocation relocation(*this, i, _store->relocation_client(_slots[i].pid));
  FactoryRegistry factories;
  if (install_factories) {
    install_factories(i, platform, factories);
  }
  CreationNode node(_options.location, _options.creation, platform, store, descriptor(i), factories);
  if (!node.start().ok()) {
    return;
  }
  for (int attempt = 0; attempt < 1'000 && !node.ensure_published(); ++attempt) {
    platform.clock.sleep_for(platform::millis(200));
  }
  // Dies before the node: the attached services hold references into it.
  const std::shared_ptr<void> attached = attach ? attach(PublishedNode{i, node, relocation}) : nullptr;
  struct Published {
    CreationNode*& slot;
    ~Published() { slot = nullptr; }
  } published{_slots[i].node};
  _slots[i].node = &node;
  std::unique_ptr<platform::Gate> forever = platform.tasks.make_gate();
  forever->wait_until(platform::kNever);  // the host run lives until it is killed
}

void Cluster::start() {
  for (std::size_t i = 0; i < _slots.size(); ++i) {
    _world->at(static_cast<TimeUs>(i) * platform::millis(10), [this, i] { _world->start(_slots[i].pid); });
  }
  const bool up = run_until(
      [this] {
        for (const Slot& slot : _slots) {
          if (slot.node == nullptr) {
            return false;
          }
        }
        return true;
      },
      platform::seconds(30));
  ASSERT_TRUE(up) << "the nodes did not publish";
}

bool Cluster::run_until(const std::function<bool()>& done, TimeUs limit) {
  const TimeUs end = _world->now_us() + limit;
  while (!done() && _world->now_us() < end) {
    const sim::RunOutcome outcome =
        _world->run_until(std::min(end, _world->now_us() + platform::millis(10)), kStepsMax);
    if (outcome.status == sim::RunStatus::failure || outcome.status == sim::RunStatus::violation) {
      ADD_FAILURE() << "the run stopped: " << outcome.problem;
      return false;
    }
  }
  return done();
}

void Cluster::run_for(TimeUs duration) {
  const TimeUs end = _world->now_us() + duration;
  run_until([this, end] { return _world->now_us() >= end; }, duration + 1);
}

void Cluster::spawn_on(std::size_t i, std::function<void(CreationNode&)> body) {
  ASSERT_NE(_slots[i].node, nullptr) << "node " << i << " is not up";
  CreationNode* node = _slots[i].node;
  _world->spawn(_slots[i].pid, "test", [node, body = std::move(body)] { body(*node); });
}

void Cluster::run_on(std::size_t i, const std::function<void(CreationNode&)>& body, TimeUs limit) {
  bool finished = false;
  spawn_on(i, [&finished, &body](CreationNode& node) {
    body(node);
    finished = true;
  });
  ASSERT_TRUE(run_until([&finished] { return finished; }, limit)) << "the task did not finish";
}

std::vector<sim::TraceEvent> Cluster::events(std::string_view kind, std::string_view key,
                                             std::string_view value) const {
  std::vector<sim::TraceEvent> out;
  const sim::Trace& trace = _world->trace();
  for (std::uint64_t i = 0; i < trace.size(); ++i) {
    sim::TraceEvent event = trace.event(i);
    if (event.kind != kind) {
      continue;
    }
    if (!key.empty() && event.text(key) != value) {
      continue;
    }
    out.push_back(event);
  }
  return out;
}

}  // namespace spotcheck::location::creation::testing
