// Test nodes for the Location runtime unit tests: one host run = a Host platform, an OwnerLease,
// AuthorityOps and a DescriptorPublisher over the shared World's store.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/config/location_config.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/location/descriptor/descriptor_publisher.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "tests/location/test_platform.h"

namespace spotcheck::location::testing {

struct NodeSpec {
  std::string mesh = "game";
  std::string rid = "00a1";
  std::uint32_t weight = 100;
  std::uint32_t actors_limit = 0;
  std::uint32_t spots_limit = 0;
  std::uint32_t room_limit = 0;  // limit of the userSpot "Room" capability
  records::DescriptorState state = records::DescriptorState::kServing;
  records::ObjectRole role = records::ObjectRole::kServer;
  std::uint64_t lifecycle_generation = 1;
};

inline records::MeshNodeDescriptorRecord make_descriptor(const NodeSpec& spec) {
  records::MeshNodeDescriptorRecord d;
  d.mesh_name = spec.mesh;
  d.routing_id_hex = spec.rid;
  d.lifecycle_generation = spec.lifecycle_generation;
  d.endpoint = "tcp://10.0.0.5:7100";
  if (spec.role == records::ObjectRole::kServer) {
    d.entry_spot_id = "entry:" + spec.mesh + ":" + spec.rid;
  }
  d.object_capabilities = {
      {records::ObjectKind::kActor, "Player", records::CapabilityPolicy::kSnapshot, true, 0},
      {records::ObjectKind::kUserSpot, "Room", records::CapabilityPolicy::kRecreate, false,
       spec.room_limit},
      {records::ObjectKind::kInstanceSpot, "Shard", records::CapabilityPolicy::kDisabled, false, 0},
  };
  d.object_role = spec.role;
  d.placement_weight = spec.weight;
  d.capacity.actors.limit = spec.actors_limit;
  d.capacity.spots.limit = spec.spots_limit;
  d.state = spec.state;
  d.security_identity = "spiffe://zlink/test";
  return d;
}

inline LocationConfig default_config() { return LocationConfig{}; }

struct TestNode {
  TestNode(World& world, const LocationConfig& config, std::uint64_t seed, NodeSpec spec)
      : world(world), spec(std::move(spec)), host(world, seed, seed),
        lease(config, host.platform, world.store),
        authority(config, host.platform, world.store, lease),
        publisher(config, host.platform, world.store, lease), config(config) {}

  // Registers the owner lease and publishes the descriptor; fails the test otherwise.
  void start() {
    Result<Done> registered = lease.register_lease();
    ASSERT_TRUE(registered.ok()) << describe(registered.error());
    Result<Done> prepared = publisher.prepare(make_descriptor(spec));
    ASSERT_TRUE(prepared.ok()) << describe(prepared.error());
    Result<PublishOutcome> published = publisher.publish();
    ASSERT_TRUE(published.ok()) << describe(published.error());
  }

  // This node as the descriptor list sees it now.
  NodeView view() {
    Result<DescriptorList> list = read_descriptor_list(world.store, host.platform, config, spec.mesh);
    EXPECT_TRUE(list.ok());
    for (NodeView& node : list.value().nodes) {
      if (node.descriptor.routing_id_hex == spec.rid) {
        return node;
      }
    }
    ADD_FAILURE() << "node " << spec.rid << " not in the descriptor list";
    return NodeView{};
  }

  World& world;
  NodeSpec spec;
  Host host;
  OwnerLease lease;
  AuthorityOps authority;
  DescriptorPublisher publisher;
  const LocationConfig& config;
};

inline ReserveRequest actor_request(std::string id) {
  return ReserveRequest{AuthorityKey{records::AuthorityKind::kActor, std::move(id)},
                        records::ObjectKind::kActor, "Player", "app-bytes", std::nullopt};
}

inline ReserveRequest room_request(std::string id) {
  return ReserveRequest{AuthorityKey{records::AuthorityKind::kSpot, std::move(id)},
                        records::ObjectKind::kUserSpot, "Room", "", std::nullopt};
}

}  // namespace spotcheck::location::testing
