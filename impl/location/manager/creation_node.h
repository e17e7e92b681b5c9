// One host run of an object-server node with creation wired in: owner lease (renewed in the
// background), MeshNode descriptor, message dispatcher, the creation and close targets for
// commands 47/48/49, and the Manager. The scenario and the tests run one per simulated process;
// everything dies with the host run.
//
//   CreationNode node(config, creation_config, platform, store, descriptor, factories);
//   if (!node.start().ok()) { ... }         // lease, descriptor prepared, renew + dispatcher up
//   node.ensure_published();                 // until it returns true (a predecessor's
//                                            // descriptor is taken over once its lease ends)
//   node.manager().get_or_create_actor("player:1", "Player", deadline);
#pragma once

#include <cstdint>
#include <memory>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/creation/creation_client.h"
#include "impl/location/creation/creation_target.h"
#include "impl/location/creation/factory.h"
#include "impl/location/manager/manager.h"
#include "impl/location/descriptor/descriptor_publisher.h"
#include "impl/location/find/close.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"

namespace spotcheck::location::creation {

class CreationNode {
 public:
  // `descriptor.routing_id_hex` must be this process's RoutingId as 16 hex digits. The
  // references must outlive the node.
  CreationNode(const LocationConfig& config, const CreationConfig& creation, platform::Platform& platform,
               store::LocationStore& store, records::MeshNodeDescriptorRecord descriptor,
               const FactoryRegistry& factories, messaging::DispatcherConfig dispatcher = {});
  CreationNode(const CreationNode&) = delete;
  CreationNode& operator=(const CreationNode&) = delete;

  // Registers the owner lease (at most `attempts_max` tries, pausing between them), prepares the
  // descriptor and starts the renew task and the dispatcher.
  Result<Done> start(std::uint32_t attempts_max = 1'000);
  // Publishes the descriptor once; true when this host run's descriptor is in the store.
  bool ensure_published();
  bool published() const { return _published; }
  // Stops the background tasks and waits (bounded) until they ended.
  void stop();

  Manager& manager() { return _manager; }
  platform::Platform& platform() { return _platform; }
  store::LocationStore& store() { return _store; }
  // Local time `after_us` from now: a deadline for a Manager call.
  platform::TimeUs deadline_in(platform::TimeUs after_us) const { return _platform.clock.now_us() + after_us; }
  OwnerLease& lease() { return _lease; }
  AuthorityOps& authority() { return _authority; }
  DescriptorPublisher& publisher() { return _publisher; }
  messaging::Dispatcher& dispatcher() { return _dispatcher; }
  const std::string& rid_hex() const { return _descriptor.routing_id_hex; }
  const std::string& mesh_name() const { return _descriptor.mesh_name; }

 private:
  NodeContext context();

  platform::Platform& _platform;
  records::MeshNodeDescriptorRecord _descriptor;
  OwnerLease _lease;
  AuthorityOps _authority;
  DescriptorPublisher _publisher;
  messaging::Dispatcher _dispatcher;
  const LocationConfig& _config;
  const CreationConfig& _creation;
  store::LocationStore& _store;
  CreationTarget _target;
  find::CloseTarget _close_target;
  CreationClient _client;
  find::CloseClient _close_client;
  Manager _manager;
  bool _published = false;
};

}  // namespace spotcheck::location::creation
