#include "impl/location/manager/creation_node.h"

#include <utility>

#include "impl/check/check.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::creation {

namespace {

objects::ObjectHostConfig object_host_config(const LocationConfig& config) {
  objects::ObjectHostConfig limits;
  limits.planted_bugs = config.planted_bugs;
  return limits;
}

}  // namespace

CreationNode::CreationNode(const LocationConfig& config, const CreationConfig& creation, platform::Platform& platform,
                           store::LocationStore& store, records::MeshNodeDescriptorRecord descriptor,
                           const FactoryRegistry& factories, messaging::DispatcherConfig dispatcher)
    : _platform(platform),
      _descriptor(std::move(descriptor)),
      _lease(config, platform, store),
      _authority(config, platform, store, _lease),
      _publisher(config, platform, store, _lease),
      _dispatcher(platform, dispatcher),
      _objects(platform, _lease, _dispatcher, _behaviors, object_host_config(config)),
      _config(config),
      _creation(creation),
      _store(store),
      _target(context(), factories),
      _close_target(context()),
      _client(context()),
      _close_client(context()),
      _manager(platform, _client, _close_client, _authority),
      _messages(config, platform, store, _lease, _authority, _dispatcher, _descriptor.routing_id_hex) {
  SPOTCHECK_ASSERT(_descriptor.routing_id_hex == messaging::routing_id_hex(platform.transport.self()));
  _dispatcher.on_create([this](platform::RoutingId from, messaging::CreateCommand command) {
    _target.handle(from, std::move(command));
  });
  _dispatcher.on_close([this](platform::RoutingId from, messaging::CloseCommand command) {
    _close_target.handle(from, std::move(command));
  });
  _dispatcher.on_object_message([this](platform::RoutingId from, messaging::ObjectMessage message) {
    _objects.handle(from, std::move(message));
  });
  _objects.set_outbox(objects::Outbox{
      [this](const objects::ObjectKey& to, std::string payload, std::uint64_t stream) {
        const platform::TimeUs deadline = _platform.clock.now_us() + _config.store_request_timeout_us;
        return _messages.post(to, std::move(payload), deadline, stream).outcome == objects::SendOutcome::kSent;
      },
      [this](std::uint64_t stream) { _messages.end_stream(stream); }});
}

NodeContext CreationNode::context() {
  std::vector<std::string> meshes = _creation.object_meshes;
  if (meshes.empty()) {
    meshes.push_back(_descriptor.mesh_name);
  }
  return NodeContext{_config,     _creation, _platform,   _store, _lease, _authority, _dispatcher,
                     _descriptor.mesh_name, _descriptor.routing_id_hex, std::move(meshes), &_objects};
}

// The registrations this host run starts with: one Location Store (the node's), the Relocation
// Stores the configuration registered, and a factory per capability a server publishes.
FrameworkRegistration CreationNode::registration() const {
  FrameworkRegistration registration;
  registration.object_role = _descriptor.object_role;
  registration.location_stores = 1;
  registration.relocation_stores = _creation.relocation_stores;
  if (_descriptor.object_role == records::ObjectRole::kServer) {
    for (const records::ObjectCapability& capability : _descriptor.object_capabilities) {
      registration.factories.push_back(
          FactoryRegistration{capability.object_kind, capability.stable_type, capability.policy});
    }
  }
  return registration;
}

Result<Done> CreationNode::start(std::uint32_t attempts_max) {
  SPOTCHECK_ASSERT(attempts_max > 0);
  if (const std::optional<ConfigError> invalid = validate(registration())) {
    platform::sometimes(_platform.events, platform::Mark::kStartupRefused);
    return Error::of(ErrorKind::kConfiguration, invalid->message);  // before any store request or socket
  }
  Result<Done> registered = Error::of(ErrorKind::kStoreError, "not attempted");
  for (std::uint32_t attempt = 0; attempt < attempts_max; ++attempt) {
    registered = _lease.register_lease();
    if (registered.ok() || registered.error_kind() == ErrorKind::kGenerationExhausted ||
        registered.error_kind() == ErrorKind::kConfiguration) {
      break;  // registered, or a startup error (§5 timing, §7.3 cache rules): no retry helps
      break;
    }
    _platform.clock.sleep_for(_platform.random.between(platform::millis(100), platform::seconds(1)));
  }
  if (!registered.ok()) {
    return registered;
  }
  if (Result<Done> prepared = _publisher.prepare(_descriptor); !prepared.ok()) {
    return prepared;
  }
  _lease.start_renewing();
  _dispatcher.start();
  return Done{};
}

bool CreationNode::ensure_published() {
  if (!_published) {
    _published = _publisher.publish().ok();
  }
  return _published;
}

void CreationNode::stop() {
  _lease.stop_renewing();
  _dispatcher.stop();
  for (int i = 0; i < 1'000 && (_lease.renewing() || _dispatcher.running()); ++i) {
    _platform.clock.sleep_for(platform::millis(10));
  }
}

}  // namespace spotcheck::location::creation
