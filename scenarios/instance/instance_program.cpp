#include "scenarios/common/node_supervision.h"
#include "scenarios/instance/instance_program.h"

#include <string>
#include <optional>
#include <string_view>

#include "impl/check/check.h"
#include "impl/location/manager/creation_node.h"
#include "impl/location/instance/instance_endpoint.h"
#include "impl/location/instance/instance_registry.h"
#include "impl/location/messaging/operation_id.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/harness_events.h"

namespace spotcheck::scenarios::instance {

namespace lc = spotcheck::location::creation;
namespace li = spotcheck::location::instance;
using platform::TimeUs;

namespace {

constexpr std::string_view kSpotPrefix = "chat-";
// Bounds of the program's own loops.
constexpr int kPublishAttemptsMax = 1'000;
constexpr int kClientRequestsMax = 1'000'000;

records::MeshNodeDescriptorRecord make_descriptor(const std::string& rid_hex, const InstanceNodeEnv& env) {
  records::MeshNodeDescriptorRecord d;
  d.mesh_name = env.workload->mesh_name;
  d.routing_id_hex = rid_hex;
  d.lifecycle_generation = 1;
  d.endpoint = "sim://" + rid_hex;
  d.object_role = env.server ? records::ObjectRole::kServer : records::ObjectRole::kClient;
  if (env.server) {
    d.entry_spot_id = "entry:" + d.mesh_name + ":" + rid_hex;
    d.object_capabilities = {
        {records::ObjectKind::kInstanceSpot, env.workload->stable_type, records::CapabilityPolicy::kRecreate, false,
         0},
        {records::ObjectKind::kInstanceSpot, env.workload->second_type, records::CapabilityPolicy::kRecreate, false,
         0}};
  }
  d.placement_weight = 100;
  d.state = records::DescriptorState::kServing;
  d.security_identity = "spiffe://zlink/sim/" + rid_hex;
  return d;
}

class Program {
 public:
  Program(platform::Platform& platform, const InstanceNodeEnv& env)
      : _platform(platform),
        _env(env),
        _workload(*env.workload),
        _store(env.make_store()),
        _relocation(env.make_relocation()),
        _node(*env.config, *env.creation, platform, *_store,
              make_descriptor(location::messaging::routing_id_hex(platform.transport.self()), env), _factories) {
    if (env.server) {
      for (const std::string& type : {_workload.stable_type, _workload.second_type}) {
        _instances.add(
            type, [](const lc::FactoryContext& context) { return lc::FactoryDecision::approve("made " + context.id); },
            [this](const li::InstanceMessage& message) { on_message(message); },
            [this](const std::string& spot_id, std::uint64_t) { on_data_lost(spot_id); });
      }
    }
  }

  void run() {
    if (!_node.start().ok()) {
      park_forever(_platform);  // no lease: this host run can do nothing
    }
    // Until published, or the lease is lost meanwhile (then supervise_node below asks for a
    // restart: a host run without its lease can never publish, nor recover what it should).
    for (int attempt = 0; attempt < kPublishAttemptsMax && !_node.lease().lost() && !_node.ensure_published();
         ++attempt) {
      _platform.clock.sleep_for(platform::millis(200));
    }
    li::InstanceTarget target(li::InstanceTargetContext{*_env.config, _platform, *_store, *_relocation, _node.lease(),
                                                        _node.authority(), _node.mesh_name(), _node.rid_hex()},
                              _instances);
    li::InstanceSource source(*_env.config, _platform, *_store, _node.lease(), _node.dispatcher(), _node.mesh_name(),
                              _node.rid_hex(), *_env.source);
    _target = &target;
    _source = &source;
    // Server nodes answer command 50; the endpoint goes before the target dies (declared after it).
    std::optional<li::InstanceEndpoint> endpoint;
    if (_env.server) {
      endpoint.emplace(_platform, _node.dispatcher(), target);
      // The restarted Framework recovers the Instance Spot rows an earlier run of this node left
      // (§7.1); each waits until that run's owner lease has ended.
      const TimeUs until_us = _platform.clock.now_us() + 4 * _env.config->owner_lease_ttl_us;
      _platform.tasks.spawn("instance-recovery", [&target, until_us] { target.recover_earlier_runs(until_us); });
    }
    if (!_env.server) {
      for (std::uint32_t c = 0; c < _workload.clients_per_node; ++c) {
        _platform.tasks.spawn("client", [this] { client_loop(); });
      }
    }
    supervise_node(_platform, _node, _env.request_restart);
  }

 private:
  // The application's handler: after a first message, sometimes Close the Spot a little later; a
  // later message sometimes closes it at once (its reply has not left yet).
  void on_message(const li::InstanceMessage& message) {
    SPOTCHECK_ASSERT(_env.server && _target != nullptr);
    if (!message.first) {
      if (_workload.close_on_message_probability > 0 && _platform.random.chance(_workload.close_on_message_probability)) {
        li::InstanceTarget* target = _target;
        _platform.tasks.spawn("instance-close-now", [target, spot = message.spot_id] { target->close(spot); });
      }
      return;
    }
    if (!_platform.random.chance(_workload.close_after_first_probability)) {
      return;
    }
    const TimeUs delay_us = _platform.random.between(0, _workload.close_delay_max_us);
    const bool reincarnate =
        static_cast<double>(delay_us) < _workload.reincarnate_share * static_cast<double>(_workload.close_delay_max_us);
    li::InstanceTarget* target = _target;
    _platform.tasks.spawn("instance-close", [this, target, delay_us, reincarnate, spot = message.spot_id] {
      _platform.clock.sleep_for(delay_us);
      if (reincarnate) {
        target->reincarnate(spot, "initialize", _platform.clock.now_us() + _workload.request_deadline_us);
      } else {
        target->close(spot);
      }
    });
  }

  // The application's answer to DataLost (§10): Close that incarnation a little later, so the
  // Spot can be activated again.
  void on_data_lost(const std::string& spot_id) {
    SPOTCHECK_ASSERT(_env.server && _target != nullptr);
    const TimeUs delay_us = _platform.random.between(0, _workload.close_delay_max_us);
    li::InstanceTarget* target = _target;
    _platform.tasks.spawn("instance-close-data-lost", [this, target, delay_us, spot_id] {
      _platform.clock.sleep_for(delay_us);
      target->close(spot_id);
    });
  }

  void client_loop() {
    for (int i = 0; i < kClientRequestsMax; ++i) {
      _platform.clock.sleep_for(_platform.random.between(_workload.think_min_us, _workload.think_max_us));
      if (_platform.clock.now_us() >= _workload.traffic_stop_us || !_node.lease().admission_open()) {
        continue;  // traffic over (keep the host run alive), or not admitted: no new request
      }
      one_request();
    }
  }

  void one_request() {
    const std::string owner = _node.lease().host_run().owner_id;
    const auto request = static_cast<std::int64_t>(++_requests);
    const TimeUs now = _platform.clock.now_us();
    li::InstanceCall call;
    call.spot_id = std::string(kSpotPrefix) + std::to_string(_platform.random.below(_workload.spot_ids));
    if (!_platform.random.chance(_workload.omit_type_probability)) {
      call.stable_type = _workload.stable_type;  // else omitted: two types are available (§7.1)
    }
    call.first_message = "m-" + _node.rid_hex() + "-" + std::to_string(request);
    call.deadline_us = now + _workload.request_deadline_us;
    platform::emit_event(_platform.events, kinds::kRequestStart,
                         sim::events::RequestStart{.owner = owner,
                                                   .request = request,
                                                   .deadline_us = call.deadline_us,
                                                   .has_now = true,
                                                   .now_us = now,
                                                   .has_id = true,
                                                   .id = call.spot_id});
    const li::InstanceOutcome outcome = _source->send(call);
    const TimeUs end = _platform.clock.now_us();
    platform::emit_event(_platform.events, kinds::kRequestEnd,
                         sim::events::RequestEnd{.owner = owner,
                                                 .request = request,
                                                 .outcome = li::to_string(outcome.kind),
                                                 .has_late = true,
                                                 .late = end > call.deadline_us ? 1 : 0,
                                                 .has_now = true,
                                                 .now_us = end});
  }

  platform::Platform& _platform;
  const InstanceNodeEnv& _env;
  const InstanceWorkload& _workload;
  std::unique_ptr<store::LocationStore> _store;
  std::unique_ptr<store::RelocationStore> _relocation;
  lc::FactoryRegistry _factories;
  lc::CreationNode _node;
  li::InstanceRegistry _instances;
  li::InstanceTarget* _target = nullptr;  // while run() lives
  li::InstanceSource* _source = nullptr;
  std::uint64_t _requests = 0;
};

}  // namespace

void run_instance_node(platform::Platform& platform, const InstanceNodeEnv& env) {
  SPOTCHECK_ASSERT(env.config != nullptr && env.creation != nullptr && env.workload != nullptr &&
                  env.source != nullptr);
  Program program(platform, env);
  program.run();
}

}  // namespace spotcheck::scenarios::instance
