#include "tests/location_instance/instance_cluster.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <variant>

#include "impl/location/messaging/operation_id.h"
#include "impl/records/keys.h"

namespace spotcheck::location::instance::testing {

namespace {
constexpr platform::RoutingId kFirstRid = 0x00b1'0000;
constexpr std::uint64_t kStepsMax = 50'000'000;
}  // namespace

class InstanceCluster::LoggingStore final : public store::LocationStore {
 public:
  LoggingStore(InstanceCluster& cluster, std::size_t node, std::unique_ptr<store::LocationStore> inner)
      : _cluster(cluster), _node(node), _inner(std::move(inner)) {}
  store::ReadResult read(const store::Key& key, store::DeadlineUs deadline_us) override {
    return _inner->read(key, deadline_us);
  }
  store::WriteResult write(const store::WriteRequest& request, store::DeadlineUs deadline_us) override {
    if (_cluster.before_write) {
      _cluster.before_write(_node, request);
    }
    _cluster._steps.push_back(StoreStep{_node, "loc_write", {}});
    store::WriteResult result = _inner->write(request, deadline_us);
    if (_cluster.after_write) {
      _cluster.after_write(_node, request, result);
    }
    return result;
  }
  store::ScanResult scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) override {
    return _inner->scan(request, deadline_us);
  }

 private:
  InstanceCluster& _cluster;
  std::size_t _node;
  std::unique_ptr<store::LocationStore> _inner;
};

class InstanceCluster::LoggingRelocation final : public store::RelocationStore {
 public:
  LoggingRelocation(InstanceCluster& cluster, std::size_t node, std::unique_ptr<store::RelocationStore> inner)
      : _cluster(cluster), _node(node), _inner(std::move(inner)) {}
  store::PutResult put(const store::PayloadPut& request, store::DeadlineUs deadline_us) override {
    _cluster._steps.push_back(StoreStep{_node, "rel_put", request.reference});
    return _inner->put(request, deadline_us);
  }
  store::GetResult get(const store::Key& reference, store::DeadlineUs deadline_us) override {
    _cluster._steps.push_back(StoreStep{_node, "rel_get", reference});
    return _inner->get(reference, deadline_us);
  }
  store::DeleteResult remove(const store::Key& reference, store::DeadlineUs deadline_us) override {
    if (_cluster.before_relocation_remove) {
      _cluster.before_relocation_remove(_node, reference);
    }
    _cluster._steps.push_back(StoreStep{_node, "rel_remove", reference});
    return _inner->remove(reference, deadline_us);
  }

 private:
  InstanceCluster& _cluster;
  std::size_t _node;
  std::unique_ptr<store::RelocationStore> _inner;
};

InstanceCluster::InstanceCluster(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed) : _suite([] {
  properties::PropertyOptions property_options;
  property_options.store_epoch_ms = sim::StoreServerConfig{}.epoch_ms;
  return property_options;
}()) {
  _suite.add_all();
  sim::WorldConfig config;
  config.seed = seed;
  _world = std::make_unique<sim::World>(config);
  _store = std::make_unique<sim::StoreServer>(*_world, sim::StoreServerConfig{});
  _suite.attach(*_world);
  _slots.resize(nodes.size());
  for (std::size_t i = 0; i < _slots.size(); ++i) {
    _slots[i].rid = kFirstRid + i;
    _slots[i].spec = nodes[i];
    _slots[i].pid = _world->add_process("node-" + std::to_string(i), _slots[i].rid,
                                        [this, i](platform::Platform& p) { node_main(i, p); });
  }
}

InstanceCluster::~InstanceCluster() {
  _suite.detach();
  _store.reset();
  _world.reset();
}

std::string InstanceCluster::rid_hex(std::size_t i) const { return messaging::routing_id_hex(_slots[i].rid); }

records::MeshNodeDescriptorRecord InstanceCluster::descriptor(std::size_t i) const {
  records::MeshNodeDescriptorRecord d;
  d.mesh_name = std::string(kMesh);
  d.routing_id_hex = rid_hex(i);
  d.lifecycle_generation = 1;
  d.endpoint = "sim://" + d.routing_id_hex;
  d.object_role = _slots[i].spec.role;
  if (d.object_role == records::ObjectRole::kServer) {
    d.entry_spot_id = "entry:" + d.mesh_name + ":" + d.routing_id_hex;
    d.object_capabilities = {{records::ObjectKind::kUserSpot, "Room", records::CapabilityPolicy::kRecreate, false, 0}};
    for (const std::string& type : _slots[i].spec.instance_types) {
      d.object_capabilities.push_back(
          {records::ObjectKind::kInstanceSpot, type, records::CapabilityPolicy::kRecreate, false, 0});
    }
  }
  d.placement_weight = 100;
  d.state = records::DescriptorState::kServing;
  d.security_identity = "spiffe://zlink/test/" + d.routing_id_hex;
  return d;
}

void InstanceCluster::node_main(std::size_t i, platform::Platform& platform) {
  LoggingStore store(*this, i, _store->location_client(_slots[i].pid));
  LoggingRelocation relocation(*this, i, _store->relocation_client(_slots[i].pid));
  creation::FactoryRegistry factories;
  factories.add(records::ObjectKind::kUserSpot, "Room",
                [](const creation::FactoryContext&) { return creation::FactoryDecision::approve(); });
  InstanceRegistry instances;
  for (const std::string& type : _slots[i].spec.instance_types) {
    instances.add(
        type,
        [this, &platform](const creation::FactoryContext& context) {
          ++_counters.factory_runs[context.id];
          if (_counters.factory_delay_us > 0) {
            platform.clock.sleep_for(_counters.factory_delay_us);
          }
          if (_counters.reject) {
            return creation::FactoryDecision::reject("no");
          }
          return creation::FactoryDecision::approve();
        },
        [this](const InstanceMessage& message) {
          _counters.messages[message.spot_id].push_back(message.body);
          if (message.first) {
            _counters.first_messages[message.spot_id].insert(message.op_id.hex());
          }
        });
  }
  creation::CreationNode node(_location, _creation, platform, store, descriptor(i), factories);
  if (!node.start().ok()) {
    return;
  }
  for (int attempt = 0; attempt < 1'000 && !node.ensure_published(); ++attempt) {
    platform.clock.sleep_for(platform::millis(200));
  }
  InstanceTarget target(
      InstanceTargetContext{_location, platform, store, relocation, node.lease(), node.authority(), node.mesh_name(),
                            node.rid_hex()},
      instances);
  InstanceSource source(_location, platform, store, node.lease(), node.mesh_name(), node.rid_hex());
  struct Published {
    Slot& slot;
    ~Published() {
      slot.node = nullptr;
      slot.target = nullptr;
      slot.source = nullptr;
      slot.platform = nullptr;
    }
  } published{_slots[i]};
  _slots[i].node = &node;
  _slots[i].target = &target;
  _slots[i].source = &source;
  _slots[i].platform = &platform;
  std::unique_ptr<platform::Gate> forever = platform.tasks.make_gate();
  forever->wait_until(platform::kNever);
}

void InstanceCluster::start() {
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

bool InstanceCluster::run_until(const std::function<bool()>& done, TimeUs limit) {
  const TimeUs end = _world->now_us() + limit;
  while (!done() && _world->now_us() < end) {
    const sim::RunOutcome outcome = _world->run_until(std::min(end, _world->now_us() + platform::millis(10)), kStepsMax);
    if (outcome.status == sim::RunStatus::failure || outcome.status == sim::RunStatus::violation) {
      ADD_FAILURE() << "the run stopped: " << outcome.problem;
      return false;
    }
  }
  return done();
}

void InstanceCluster::spawn_on(std::size_t i, std::function<void()> body) {
  ASSERT_NE(_slots[i].node, nullptr) << "node " << i << " is not up";
  _world->spawn(_slots[i].pid, "test", std::move(body));
}

void InstanceCluster::run_on(std::size_t i, const std::function<void(creation::CreationNode&)>& body) {
  bool finished = false;
  creation::CreationNode* node = _slots[i].node;
  ASSERT_NE(node, nullptr);
  spawn_on(i, [&finished, &body, node] {
    body(*node);
    finished = true;
  });
  ASSERT_TRUE(run_until([&finished] { return finished; }, platform::seconds(120)));
}

InstanceCall InstanceCluster::call(std::string spot_id, std::optional<std::string> type, std::string body) {
  InstanceCall call;
  call.spot_id = std::move(spot_id);
  call.stable_type = std::move(type);
  call.first_message = std::move(body);
  call.deadline_us = _world->now_us() + platform::seconds(30);
  return call;
}

InstanceOutcome InstanceCluster::deliver(std::size_t from, const std::string& target_rid_hex,
                                         const InstanceRequest& request, TimeUs deadline_us) {
  std::size_t to = _slots.size();
  for (std::size_t i = 0; i < _slots.size(); ++i) {
    if (rid_hex(i) == target_rid_hex) {
      to = i;
    }
  }
  if (to == _slots.size() || _slots[to].target == nullptr) {
    return InstanceOutcome{InstanceOutcomeKind::kDeadlineExceeded, 0, {}, {}, "no such target"};
  }
  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  InstanceTarget* target = _slots[to].target;
  _world->spawn(_slots[to].pid, "instance-target", [target, request, result] { result->emplace(target->handle(request)); });
  platform::Platform& platform = *_slots[from].platform;
  while (!result->has_value() && platform.clock.now_us() < deadline_us) {
    platform.clock.sleep_for(platform::millis(1));  // the simulated network hop
  }
  if (!result->has_value()) {
    return InstanceOutcome{InstanceOutcomeKind::kDeadlineExceeded, 0, {}, {}, "no answer"};
  }
  return **result;
}

std::shared_ptr<std::optional<InstanceOutcome>> InstanceCluster::send_from(std::size_t i, InstanceCall call) {
  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  spawn_on(i, [this, i, call, result] {
    InstanceSource* source = _slots[i].source;
    result->emplace(source->send(call, [this, i, &call](const std::string& rid, const InstanceRequest& request) {
      return deliver(i, rid, request, call.deadline_us);
    }));
  });
  return result;
}

std::shared_ptr<std::optional<InstanceOutcome>> InstanceCluster::handle_on(std::size_t i, InstanceRequest request) {
  auto result = std::make_shared<std::optional<InstanceOutcome>>();
  InstanceTarget* target = _slots[i].target;
  EXPECT_NE(target, nullptr);
  spawn_on(i, [target, request = std::move(request), result] { result->emplace(target->handle(request)); });
  return result;
}

InstanceOutcome InstanceCluster::prepare_on(std::size_t i, const InstanceCall& call, InstanceRequest& request) {
  std::optional<InstanceOutcome> out;
  InstanceSource* source = _slots[i].source;
  run_on(i, [&](creation::CreationNode&) { out.emplace(source->prepare(call, request)); });
  EXPECT_TRUE(out.has_value());
  return out.value_or(InstanceOutcome{});
}

std::optional<records::AuthorityRecord> InstanceCluster::spot_row(const std::string& spot_id) {
  const store::ReadResult read =
      _store->location_engine().read(records::authority_preimage(records::AuthorityKind::kSpot, spot_id), INT64_MAX);
  const auto* found = std::get_if<store::Found>(&read);
  if (found == nullptr) {
    return std::nullopt;
  }
  records::RecordResult<records::AuthorityRecord> decoded = records::decode_authority_record(found->value);
  if (!decoded.ok()) {
    throw std::runtime_error("undecodable authority row");
  }
  return decoded.value();
}

std::vector<sim::TraceEvent> InstanceCluster::events(std::string_view kind, std::string_view key,
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

}  // namespace spotcheck::location::instance::testing
