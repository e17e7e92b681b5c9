// The object runtime's side of a relocation (ObjectHost: begin_move, take_queued, end_move,
// cancel_move, activate_moved; spec §1.3, §9.2, §9.4): a held instance runs no turn, its queue
// leaves it in order, a cancelled move puts the work back in front in its order, a handed-over
// instance goes without answering anything and what arrives for it is the forwarder's, and a
// moved instance opens on its target with its work queued in the order given.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "impl/location/config/location_config.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/location/objects/object_host.h"
#include "impl/platform/event_kinds.h"
#include "tests/location/test_platform.h"

namespace spotcheck::location {
namespace {

using objects::HostedObject;
using objects::ObjectHost;
using objects::ObjectKey;
using objects::QueuedMessage;

const ObjectKey kPlayer{records::AuthorityKind::kActor, "player:1"};
constexpr platform::RoutingId kSender = 77;

class ObjectMoves : public ::testing::Test {
 protected:
  ObjectMoves() : host(world, 3, 10), lease(config, host.platform, world.store), dispatcher(host.platform) {}

  void SetUp() override {
    ASSERT_TRUE(lease.register_lease().ok());
    behaviors.add(records::AuthorityKind::kActor, "Player",
                  [this](objects::TurnContext&, const objects::TurnInput& input) {
                    ran.push_back(input.payload);
                    return std::string("ok");
                  });
    objects = std::make_unique<ObjectHost>(host.platform, lease, dispatcher, behaviors);
  }

  HostedObject hosted(std::uint64_t owner_generation = 1) const {
    return HostedObject{kPlayer, 4, owner_generation, "Player"};
  }
  messaging::ObjectMessage message(std::uint64_t seq, std::string payload) const {
    messaging::ObjectMessage m;
    m.request = seq;
    m.op_id = messaging::OperationId{1, seq};
    m.source_rid_hex = messaging::routing_id_hex(kSender);
    m.source = messaging::WireHostRun{"sender", 1};
    m.target = messaging::WireHostRun{lease.host_run().owner_id, lease.host_run().lease_generation};
    m.kind = kPlayer.kind;
    m.id = kPlayer.id;
    m.object_generation = 4;
    m.owner_generation = 1;
    m.stream = 0;
    m.sequence = seq;
    m.payload = std::move(payload);
    return m;
  }
  static std::vector<std::string> payloads(const std::vector<QueuedMessage>& queued) {
    std::vector<std::string> out;
    for (const QueuedMessage& q : queued) {
      out.push_back(q.message.payload);
    }
    return out;
  }

  testing::World world;
  LocationConfig config;
  testing::Host host;
  OwnerLease lease;
  messaging::Dispatcher dispatcher;
  objects::ObjectBehaviors behaviors;
  std::unique_ptr<ObjectHost> objects;
  std::vector<std::string> ran;
};

TEST_F(ObjectMoves, AHeldInstanceRunsNothingAndItsQueueLeavesInOrder) {
  objects->activate(hosted());
  objects->open(kPlayer, 4);
  ASSERT_TRUE(objects->begin_move(kPlayer, 4));
  EXPECT_FALSE(objects->begin_move(kPlayer, 4)) << "one move at a time";
  objects->handle(kSender, message(1, "a"));
  objects->handle(kSender, message(2, "b"));
  host.tasks.run_spawned();
  EXPECT_TRUE(ran.empty()) << "the ingress hold: no turn starts";
  EXPECT_EQ(payloads(objects->take_queued(kPlayer, 4)), (std::vector<std::string>{"a", "b"}));
  objects->handle(kSender, message(3, "c"));
  EXPECT_EQ(payloads(objects->take_queued(kPlayer, 4)), (std::vector<std::string>{"c"}));
  EXPECT_TRUE(host.transport.sent.empty()) << "nothing held is answered";
}

TEST_F(ObjectMoves, ACancelledMovePutsTheWorkBackInFrontInItsOrder) {
  objects->activate(hosted());
  objects->open(kPlayer, 4);
  ASSERT_TRUE(objects->begin_move(kPlayer, 4));
  objects->handle(kSender, message(1, "saved"));
  std::vector<QueuedMessage> saved = objects->take_queued(kPlayer, 4);
  objects->handle(kSender, message(2, "ingress"));
  objects->cancel_move(kPlayer, 4, std::move(saved));
  objects->handle(kSender, message(3, "after"));
  host.tasks.run_spawned();
  EXPECT_EQ(ran, (std::vector<std::string>{"saved", "ingress", "after"}));
}

TEST_F(ObjectMoves, AHandedOverInstanceGoesAndWhatArrivesIsTheForwarders) {
  std::vector<std::string> forwarded;
  objects->set_forwarder([&](platform::RoutingId, const messaging::ObjectMessage& m) {
    forwarded.push_back(m.payload);
    return true;
  });
  objects->activate(hosted());
  objects->open(kPlayer, 4);
  ASSERT_TRUE(objects->begin_move(kPlayer, 4));
  objects->end_move(kPlayer, 4);
  EXPECT_FALSE(objects->hosts(kPlayer));
  const auto gone = world.events.of_kind(kinds::kObjectDeactivated);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].text.at("reason"), "moved");
  objects->handle(kSender, message(1, "late"));
  EXPECT_EQ(forwarded, (std::vector<std::string>{"late"}));
  EXPECT_TRUE(host.transport.sent.empty()) << "a forwarded message is not answered here";
}

TEST_F(ObjectMoves, AMovedInstanceOpensOnItsTargetWithItsWorkInTheOrderGiven) {
  objects->activate(hosted(1));  // an instance of the earlier owner epoch, left here
  std::vector<QueuedMessage> work;
  for (const char* payload : {"saved", "relay", "temporary"}) {
    work.push_back(QueuedMessage{kSender, message(work.size() + 1, payload)});
  }
  ASSERT_TRUE(objects->activate_moved(hosted(2), std::move(work)));
  objects->handle_followed(kSender, message(9, "followed"));
  host.tasks.run_spawned();
  EXPECT_EQ(ran, (std::vector<std::string>{"saved", "relay", "temporary", "followed"}));
  const auto turns = world.events.of_kind(kinds::kObjectTurn);
  ASSERT_EQ(turns.size(), 4u);
  EXPECT_EQ(turns[0].number.at("owner_gen"), 2) << "the move's epoch, not the instance left here";
}

TEST_F(ObjectMoves, OnlyAHeldInstanceOfThatGenerationLetsItsQueueGo) {
  objects->activate(hosted());
  objects->open(kPlayer, 4);
  objects->handle(kSender, message(1, "a"));
  EXPECT_TRUE(objects->take_queued(kPlayer, 4).empty()) << "not held";
  ASSERT_TRUE(objects->begin_move(kPlayer, 4));
  EXPECT_TRUE(objects->take_queued(kPlayer, 5).empty()) << "another generation";
  objects->end_move(kPlayer, 5);
  EXPECT_TRUE(objects->hosts(kPlayer));
}

}  // namespace
}  // namespace spotcheck::location
