// §2 store registrations at startup: each store at most once; an object role needs a Location
// Store; only a Server provides factories; RecreateOnRelocation / PreserveStateWith factories or an
// Instance Spot factory need exactly one Relocation Store. A node whose registrations break a rule
// does not start: a typed configuration error before any store request, message or task.
#include <gtest/gtest.h>

#include "impl/location/config/framework_registration.h"
#include "impl/location/manager/creation_node.h"
#include "impl/location/messaging/operation_id.h"
#include "impl/platform/event_kinds.h"
#include "tests/location/fixtures.h"

namespace spotcheck::location {
namespace {

using records::CapabilityPolicy;
using records::ObjectKind;
using records::ObjectRole;

FrameworkRegistration server(std::vector<FactoryRegistration> factories, std::size_t relocation_stores) {
  return FrameworkRegistration{ObjectRole::kServer, 1, relocation_stores, std::move(factories)};
}

void expect_refused(const FrameworkRegistration& registration, const std::string& says) {
  const std::optional<ConfigError> error = validate(registration);
  ASSERT_TRUE(error.has_value()) << says;
  EXPECT_EQ(error->kind, ConfigErrorKind::kStoreRegistration);
  EXPECT_NE(error->message.find(says), std::string::npos) << error->message;
}

TEST(FrameworkRegistration, EachStoreAtMostOnceAndAnObjectRoleNeedsALocationStore) {
  EXPECT_FALSE(validate(FrameworkRegistration{ObjectRole::kNone, 0, 0, {}}).has_value()) << "role None needs none";
  EXPECT_FALSE(validate(FrameworkRegistration{ObjectRole::kClient, 1, 0, {}}).has_value());
  expect_refused(FrameworkRegistration{ObjectRole::kClient, 0, 0, {}}, "object role client requires a Location Store");
  expect_refused(FrameworkRegistration{ObjectRole::kServer, 0, 1, {}}, "object role server requires a Location Store");
  expect_refused(FrameworkRegistration{ObjectRole::kClient, 2, 0, {}}, "registered 2 times");
  expect_refused(FrameworkRegistration{ObjectRole::kClient, 1, 2, {}}, "Relocation Store is registered 2 times");
  expect_refused(FrameworkRegistration{ObjectRole::kClient, 1, 0, {{ObjectKind::kActor, "Player", CapabilityPolicy::kDisabled}}},
                 "object role client provides no factory");
}

TEST(FrameworkRegistration, ARelocationStoreIsRequiredExactlyWhenAFactoryNeedsOne) {
  const FactoryRegistration disabled{ObjectKind::kActor, "Player", CapabilityPolicy::kDisabled};
  EXPECT_FALSE(validate(server({disabled}, 0)).has_value()) << "DisableRelocation only: optional";
  EXPECT_FALSE(validate(server({disabled}, 1)).has_value());
  for (const FactoryRegistration& needs :
       {FactoryRegistration{ObjectKind::kActor, "Player", CapabilityPolicy::kSnapshot},
        FactoryRegistration{ObjectKind::kUserSpot, "Room", CapabilityPolicy::kRecreate},
        FactoryRegistration{ObjectKind::kInstanceSpot, "Chat", CapabilityPolicy::kDisabled}}) {
    EXPECT_TRUE(needs_relocation_store(server({disabled, needs}, 0)));
    expect_refused(server({disabled, needs}, 0), "requires exactly one Relocation Store");
    EXPECT_FALSE(validate(server({disabled, needs}, 1)).has_value());
  }
  EXPECT_EQ(to_string(ConfigErrorKind::kStoreRegistration), "store_registration");
}

// A node whose factories need a Relocation Store, started without one: kConfiguration, and it
// touched nothing — no store request, no message, no task (the "socket" is never opened).
TEST(FrameworkRegistration, ANodeWithoutTheRelocationStoreItNeedsDoesNotStart) {
  testing::World world;
  testing::Host host(world, 7, 0xa1);
  const LocationConfig config;
  creation::CreationConfig creation;
  creation.relocation_stores = 0;
  records::MeshNodeDescriptorRecord descriptor = testing::make_descriptor(testing::NodeSpec{});
  descriptor.routing_id_hex = messaging::routing_id_hex(0xa1);
  const creation::FactoryRegistry factories;
  creation::CreationNode node(config, creation, host.platform, world.store, descriptor, factories);
  const Result<Done> started = node.start();
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error_kind(), ErrorKind::kConfiguration);
  EXPECT_NE(started.error().message.find("Relocation Store"), std::string::npos) << started.error().message;
  EXPECT_EQ(world.store.reads, 0u);
  EXPECT_EQ(world.store.writes, 0u);
  EXPECT_TRUE(host.transport.sent.empty());
  EXPECT_TRUE(host.tasks.spawned_names.empty());
  EXPECT_EQ(world.events.count(spotcheck::kinds::kLeaseStartupChecked), 0u) << "refused before the lease is even checked";

  // The same node with its Relocation Store registered starts.
  creation.relocation_stores = 1;
  creation::CreationNode registered(config, creation, host.platform, world.store, descriptor, factories);
  EXPECT_TRUE(registered.start().ok());
  EXPECT_GT(world.store.writes, 0u);
}

}  // namespace
}  // namespace spotcheck::location
