// The object runtime's side of a relocation (ObjectHost: begin_move, take_queued, take_timers,
// end_move, cancel_move, activate_moved; spec §1.3, §9.2, §9.4): a held instance runs no turn, its
// queue leaves it in order, its timers leave it with their identity and time left, a cancelled
// move puts the work back in front in its order and re-arms the timers, a handed-over instance goes
// without answering anything and what arrives for it is the forwarder's, and a moved instance
// opens on its target with its work queued in the order given and its timers armed.
#include <gtest/gtest.h>

#include <functional>
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
using objects::MovedTimer;
using objects::ObjectHost;
using objects::ObjectKey;
using objects::QueuedMessage;
using objects::TimerId;

const ObjectKey kPlayer{records::AuthorityKind::kActor, "player:1"};
constexpr platform::RoutingId kSender = 77;

class ObjectMoves : public ::testing::Test {
 protected:
  ObjectMoves() : host(world, 3, 10), lease(config, host.platform, world.store), dispatcher(host.platform) {}

  void SetUp() override {
    ASSERT_TRUE(lease.register_lease().ok());
    behaviors.add(records::AuthorityKind::kActor, "Player",
                  [this](objects::TurnContext& context, const objects::TurnInput& input) {
                    ran.push_back(input.payload);
                    if (on_turn) {
                      on_turn(context, input);
                    }
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
  // Called inside a turn, after `ran` recorded it (the handler's own work: timers, a move begun).
  std::function<void(objects::TurnContext&, const objects::TurnInput&)> on_turn;
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
  objects->cancel_move(kPlayer, 4, std::move(saved), {});
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
  ASSERT_TRUE(objects->activate_moved(hosted(2), std::move(work), {}));
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


namespace timers {

// The timer turns' identities, as object.turn names them: "owner/lease_gen/stream/seq".
std::vector<std::string> timer_turns(const testing::World& world) {
  std::vector<std::string> out;
  for (const auto& turn : world.events.of_kind(kinds::kObjectTurn)) {
    if (turn.text.at("turn") == "timer") {
      out.push_back(turn.text.at("source_owner") + "/" + std::to_string(turn.number.at("source_lease_gen")) + "/" +
                    std::to_string(turn.number.at("stream")) + "/" + std::to_string(turn.number.at("seq")));
    }
  }
  return out;
}

}  // namespace timers

// §1.3 step 3: the capture takes the timers not yet run — pending ones with the time they have
// left, in due order — and none fires at the source after it; §9.4: a cancelled move re-arms them.
TEST_F(ObjectMoves, ACaptureTakesThePendingTimersAndACancelReArmsThem) {
  objects->activate(hosted());
  objects->open(kPlayer, 4);
  std::vector<MovedTimer> taken;
  on_turn = [&](objects::TurnContext& context, const objects::TurnInput& input) {
    if (input.payload == "arm") {
      ASSERT_TRUE(context.start_timer(platform::millis(900), "late-tick"));
      ASSERT_TRUE(context.start_timer(platform::millis(500), "tick"));
      ASSERT_TRUE(objects->begin_move(kPlayer, 4));
      taken = objects->take_timers(kPlayer, 4);
    }
  };
  objects->handle(kSender, message(1, "arm"));
  host.tasks.run_spawned();
  EXPECT_EQ(ran, (std::vector<std::string>{"arm"})) << "a captured timer never fires at the source";
  ASSERT_EQ(taken.size(), 2u);
  const std::string owner = lease.host_run().owner_id;
  EXPECT_EQ(taken[0].payload, "tick");
  EXPECT_EQ(taken[0].remaining_us, platform::millis(500));
  EXPECT_EQ(taken[0].id, (TimerId{owner, lease.host_run().lease_generation, taken[0].id.stream, 2}));
  EXPECT_EQ(taken[1].payload, "late-tick");
  EXPECT_EQ(taken[1].remaining_us, platform::millis(900));
  EXPECT_EQ(taken[1].id.number, 1u);
  EXPECT_EQ(world.events.of_kind(kinds::kObjectTimerStarted).size(), 2u);

  objects->cancel_move(kPlayer, 4, {}, std::move(taken));
  host.tasks.run_spawned();
  EXPECT_EQ(ran, (std::vector<std::string>{"arm", "tick", "late-tick"}));
  const std::string stream = "/" + std::to_string(lease.host_run().lease_generation) + "/";
  const std::vector<std::string> turns = timers::timer_turns(world);
  ASSERT_EQ(turns.size(), 2u);
  EXPECT_EQ(turns[0].rfind(owner + stream, 0), 0u) << turns[0];
  EXPECT_EQ(turns[0].back(), '2') << "the timer's own identity, kept across the capture";
  EXPECT_EQ(turns[1].back(), '1');
}

// A timer that came due during the ingress hold waits in the queue: the capture takes it too,
// with no time left, and take_queued leaves it to take_timers.
TEST_F(ObjectMoves, ATimerDueDuringTheHoldIsCapturedWithNoTimeLeft) {
  objects->activate(hosted());
  objects->open(kPlayer, 4);
  on_turn = [&](objects::TurnContext& context, const objects::TurnInput& input) {
    if (input.payload == "arm") {
      ASSERT_TRUE(context.start_timer(platform::millis(100), "tick"));
      ASSERT_TRUE(objects->begin_move(kPlayer, 4));
    }
  };
  objects->handle(kSender, message(1, "arm"));
  host.tasks.run_spawned();
  EXPECT_EQ(ran, (std::vector<std::string>{"arm"}));
  EXPECT_TRUE(objects->take_queued(kPlayer, 4).empty()) << "no message is queued; the timer turn stays";
  const std::vector<MovedTimer> taken = objects->take_timers(kPlayer, 4);
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0].payload, "tick");
  EXPECT_EQ(taken[0].remaining_us, 0);
  objects->end_move(kPlayer, 4);
  EXPECT_TRUE(world.events.of_kind(kinds::kObjectTurnRefused).empty()) << "nothing was left behind to refuse";
}

// §9.2: the target arms the timers the payload carried, under the identity their starter gave them.
TEST_F(ObjectMoves, AMovedInstanceArmsTheTimersItCarriedUnderTheirIdentity) {
  std::vector<MovedTimer> moved{MovedTimer{TimerId{"source-run", 3, 7, 5}, platform::millis(200), "moved-tick"}};
  ASSERT_TRUE(objects->activate_moved(hosted(2), {QueuedMessage{kSender, message(1, "saved")}}, std::move(moved)));
  host.tasks.run_spawned();
  EXPECT_EQ(ran, (std::vector<std::string>{"saved", "moved-tick"}));
  EXPECT_EQ(timers::timer_turns(world), (std::vector<std::string>{"source-run/3/7/5"}));
  EXPECT_TRUE(world.events.of_kind(kinds::kObjectTimerStarted).empty()) << "a moved timer is not started again";
}

}  // namespace
}  // namespace spotcheck::location
