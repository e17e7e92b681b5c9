// One host run of an object-server node with creation wired in: owner lease (renewed in the
// background), MeshNode descriptor, message dispatcher, the creation and close targets for
// commands 47/48/49, the Manager, and the object runtime: the instances this host run hosts
// (objects(), their message handlers registered in behaviors()) and regular messages to any
// object by its ID (messages(), with the location cache of §7.3). The scenario and the tests run one per simulated process;
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
#include "impl/location/config/framework_registration.h"
#include "impl/location/creation/creation_client.h"
#include "impl/location/creation/creation_target.h"
#include "impl/location/creation/factory.h"
#include "impl/location/manager/manager.h"
#include "impl/location/descriptor/descriptor_publisher.h"
#include "impl/location/find/close.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/location/objects/object_behaviors.h"
#include "impl/location/objects/object_client.h"
#include "impl/location/objects/object_host.h"

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

  // Checks the store registrations (§2) first — a breach is a kConfiguration error before any
  // store request or message —, then registers the owner lease (at most `attempts_max` tries,
  // pausing between them; its §5 timing check is a kConfiguration error too), prepares the
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
  objects::ObjectBehaviors& behaviors() { return _behaviors; }
  objects::ObjectHost& objects() { return _objects; }
  objects::ObjectClient& messages() { return _messages; }
  const std::string& rid_hex() const { return _descriptor.routing_id_hex; }
  const std::string& mesh_name() const { return _descriptor.mesh_name; }

 private:
  NodeContext context();
  FrameworkRegistration registration() const;

  platform::Platform& _platform;
  records::MeshNodeDescriptorRecord _descriptor;
  OwnerLease _lease;
  AuthorityOps _authority;
  DescriptorPublisher _publisher;
  messaging::Dispatcher _dispatcher;
  objects::ObjectBehaviors _behaviors;
  objects::ObjectHost _objects;
  const LocationConfig& _config;
  const CreationConfig& _creation;
  store::LocationStore& _store;
  CreationTarget _target;
  find::CloseTarget _close_target;
  CreationClient _client;
  find::CloseClient _close_client;
  Manager _manager;
  objects::ObjectClient _messages;
  bool _published = false;
};

}  // namespace spotcheck::location::creation
