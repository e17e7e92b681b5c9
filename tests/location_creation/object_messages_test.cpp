// The object runtime and the location cache on real CreationNodes (spec §5, §7.1, §7.3): a
// regular message to an object by its ID runs as one turn of its instance on the owner, the
// next goes over the cached location, Missing and Creating are never cached, a route to a removed
// generation is dropped and the object looked up again, a message or timer callback never starts
// past the owner's admission deadline, and a timer of a removed instance never runs.
#include "tests/location_creation/fixture.h"

#include <algorithm>

#include "impl/location/objects/object_client.h"
#include "sim/store_host/store_server.h"

namespace spotcheck::location::creation::testing {
namespace {

using objects::ObjectKey;
using objects::SendOutcome;
using objects::SendResult;

const ObjectKey kPlayer{records::AuthorityKind::kActor, "p"};

class ObjectMessagesTest : public CreationTest {
 protected:
  // Every host run gets a handler for Player and Room: it records each turn and answers
  // "echo:<payload>"; a message "arm" starts a 1 s timer.
  void make_with_handlers(ClusterOptions options = source_and_servers(2)) {
    cluster = std::make_unique<Cluster>(std::move(options));
    cluster->install_factories = [this](std::size_t, platform::Platform& p, FactoryRegistry& r) {
      factory.install(p, r);
    };
    cluster->attach = [this](const PublishedNode& published) -> std::shared_ptr<void> {
      auto handler = [this, index = published.index](objects::TurnContext& context,
                                                       const objects::TurnInput& input) -> std::string {
        turns.push_back(std::to_string(index) + ":" + (input.timer ? "timer:" : "") + input.payload);
        if (!input.timer && input.payload == "arm") {
          EXPECT_TRUE(context.start_timer(seconds(1), "tick"));
        }
        if (!input.timer && input.payload.starts_with("post:")) {  // "post:<actor>:<text>": a Send of <text>
          const std::size_t colon = input.payload.find(':', 5);
          posted.push_back(context.post(ObjectKey{records::AuthorityKind::kActor, input.payload.substr(5, colon - 5)},
                                        input.payload.substr(colon + 1)));
        }
        return "echo:" + input.payload;
      };
      published.node.behaviors().add(records::AuthorityKind::kActor, "Player", handler);
      published.node.behaviors().add(records::AuthorityKind::kSpot, "Room", handler);
      return nullptr;
    };
    cluster->start();
  }
  SendResult send_from(std::size_t node, const ObjectKey& key, std::string payload) {
    return call_on(node, [&](CreationNode& n) { return n.messages().send(key, payload, n.deadline_in(seconds(5))); });
  }
  ActorRef create(std::size_t node, const std::string& id) {
    auto created = call_on(node, [&](CreationNode& n) { return n.manager().create_actor(id, "Player", n.deadline_in(seconds(5))); });
    EXPECT_TRUE(created.ok());
    return created.value().ref;
  }
  std::size_t owner_index(const ActorRef& ref) const {
    for (std::size_t i = 0; i < cluster->size(); ++i) {
      if (cluster->rid_hex(i) == ref.node_rid_hex) {
        return i;
      }
    }
    ADD_FAILURE() << "no node " << ref.node_rid_hex;
    return 0;
  }

  std::vector<std::string> turns;
  std::vector<bool> posted;  // what each handler's post() returned
};

TEST_F(ObjectMessagesTest, AMessageRunsOnTheOwnerAndTheNextGoesOverTheCachedLocation) {
  make_with_handlers();
  const ActorRef ref = create(0, "p");
  const std::size_t owner = owner_index(ref);
  const SendResult first = send_from(0, kPlayer, "one");
  ASSERT_EQ(first.outcome, SendOutcome::kRan);
  EXPECT_EQ(first.reply, "echo:one");
  EXPECT_EQ(first.sequence, 1u);
  ASSERT_EQ(cluster->events("cache.filled").size(), 1u);
  EXPECT_EQ(cluster->events("cache.hit").size(), 0u);
  const SendResult second = send_from(0, kPlayer, "two");
  ASSERT_EQ(second.outcome, SendOutcome::kRan);
  EXPECT_EQ(second.sequence, 2u);
  EXPECT_EQ(cluster->events("cache.hit").size(), 1u) << "the second message goes over the cached location";
  EXPECT_EQ(cluster->events("cache.filled").size(), 1u);
  EXPECT_EQ(cluster->events("object.message_sent", "via", "cache").size(), 1u);
  EXPECT_EQ(turns, (std::vector<std::string>{std::to_string(owner) + ":one", std::to_string(owner) + ":two"}));
  const auto filled = cluster->events("cache.filled")[0];
  // The bound: the earlier of RouteCacheMaxAge and the owner's last admission time (§7.3).
  EXPECT_LE(*filled.number("expires_us"), *filled.number("now_us") + seconds(15));
  EXPECT_LE(*filled.number("expires_us"), *filled.number("read_before_us") +
                                          (*filled.number("lease_expires_ms") - *filled.number("store_now_ms")) * 1000 -
                                          seconds(5));
  // The owner's own node sends over the same path.
  EXPECT_EQ(send_from(owner, kPlayer, "three").outcome, SendOutcome::kRan);
}

// A Send (no reply route, §9.3) from a handler runs on its target as a turn of its own; nothing
// answers it; one instance's Sends to one object carry its own stream's increasing numbers.
TEST_F(ObjectMessagesTest, AHandlersSendsRunOnTheTargetInOrderAndNothingAnswersThem) {
  make_with_handlers();
  create(0, "p");
  const ActorRef q = create(0, "q");
  ASSERT_EQ(send_from(0, kPlayer, "post:q:x").outcome, SendOutcome::kRan);
  ASSERT_EQ(send_from(0, kPlayer, "post:q:y").outcome, SendOutcome::kRan);
  cluster->run_for(seconds(1));
  EXPECT_EQ(posted, (std::vector<bool>{true, true}));
  const auto on_q = cluster->events("object.turn", "id", "q");
  ASSERT_EQ(on_q.size(), 2u);
  EXPECT_EQ(*on_q[0].number("seq"), 1);
  EXPECT_EQ(*on_q[1].number("seq"), 2);
  EXPECT_EQ(*on_q[0].number("stream"), *on_q[1].number("stream")) << "p's one instance stream";
  EXPECT_GE(*on_q[0].number("stream"), std::int64_t{1} << 48) << "apart from client streams";
  const std::string q_owner = std::to_string(owner_index(q));
  EXPECT_EQ(std::count(turns.begin(), turns.end(), q_owner + ":x"), 1);
  EXPECT_EQ(std::count(turns.begin(), turns.end(), q_owner + ":y"), 1);
  EXPECT_EQ(cluster->events("object.message_answered", "outcome", "sent").size(), 2u);
  EXPECT_TRUE(cluster->events("messaging.late_reply").empty()) << "no reply ever comes back for a Send";
}

// A Send over a stale cached route: the owner drops it unrun (object.message_refused) and answers
// nothing; the sender is not told and does not look it up again (no reply route, §9.3).
TEST_F(ObjectMessagesTest, ASendOverAStaleRouteIsDroppedUnrunAndUnanswered) {
  make_with_handlers();
  create(0, "p");
  const ActorRef q = create(0, "q");
  ASSERT_EQ(send_from(owner_index(q) == 0 ? 1 : 0, ObjectKey{records::AuthorityKind::kActor, "p"}, "post:q:warm")
                .outcome,
            SendOutcome::kRan);
  cluster->run_for(seconds(1));
  auto destroyed = call_on(0, [&](CreationNode& n) { return n.manager().destroy(q, n.deadline_in(seconds(5))); });
  ASSERT_TRUE(destroyed.ok() && destroyed.value());
  create(0, "q");  // a new generation; p's node still caches the removed one
  ASSERT_EQ(send_from(0, kPlayer, "post:q:late").outcome, SendOutcome::kRan);
  cluster->run_for(seconds(1));
  EXPECT_EQ(posted, (std::vector<bool>{true, true}));
  const std::size_t stale = cluster->events("object.message_refused", "outcome", "stale_generation").size() +
                            cluster->events("object.message_refused", "outcome", "not_here").size();
  EXPECT_EQ(stale, 1u) << "the owner dropped it unrun";
  EXPECT_TRUE(cluster->events("messaging.late_reply").empty()) << "and answered nothing";
  // A turn is "<node>:<payload>"; p's own turn is "<node>:post:q:late".
  EXPECT_TRUE(std::none_of(turns.begin(), turns.end(),
                           [](const std::string& t) { return t.substr(t.find(':') + 1) == "late"; }))
      << ::testing::PrintToString(turns);
}

TEST_F(ObjectMessagesTest, MissingAndCreatingAreNotFoundAndNeverCached) {
  make_with_handlers();
  EXPECT_EQ(send_from(0, kPlayer, "x").outcome, SendOutcome::kNotFound);
  factory.delay_us = seconds(2);
  std::optional<ManagerResult<CreateReply>> created;
  cluster->spawn_on(0, [&](CreationNode& n) { created.emplace(n.manager().create_actor("p", "Player", n.deadline_in(seconds(8)))); });
  ASSERT_TRUE(cluster->run_until([this] { return !cluster->events("creation.factory_run").empty(); }, seconds(3)));
  EXPECT_EQ(send_from(0, kPlayer, "y").outcome, SendOutcome::kNotReady);
  EXPECT_TRUE(cluster->events("cache.filled").empty()) << "Missing and Creating are never cached";
  ASSERT_TRUE(cluster->run_until([&] { return created.has_value(); }, seconds(8)));
  EXPECT_EQ(send_from(0, kPlayer, "z").outcome, SendOutcome::kRan);
  EXPECT_TRUE(turns.size() == 1 && turns[0].ends_with(":z")) << "nothing ran before Ready";
}

TEST_F(ObjectMessagesTest, ARouteToARemovedGenerationIsDroppedAndTheCurrentOneFound) {
  make_with_handlers();
  const ActorRef first = create(0, "p");
  ASSERT_EQ(send_from(0, kPlayer, "a").outcome, SendOutcome::kRan);
  auto destroyed = call_on(0, [&](CreationNode& n) { return n.manager().destroy(first, n.deadline_in(seconds(5))); });
  ASSERT_TRUE(destroyed.ok() && destroyed.value());
  ASSERT_EQ(cluster->events("object.deactivated").size(), 1u);
  const ActorRef second = create(0, "p");
  ASSERT_GT(second.object_generation, first.object_generation);
  // The cache still names the first generation: its owner refuses, the entry goes, the row is read
  // again and the message runs on the current generation.
  const SendResult sent = send_from(0, kPlayer, "b");
  ASSERT_EQ(sent.outcome, SendOutcome::kRan);
  EXPECT_EQ(cluster->events("cache.hit").size(), 1u);
  ASSERT_EQ(cluster->events("cache.dropped").size(), 1u);
  EXPECT_EQ(cluster->events("object.message_refused").size(), 1u);
  const auto ran = cluster->events("object.turn");
  ASSERT_EQ(ran.size(), 2u);
  EXPECT_EQ(*ran[1].number("object_gen"), static_cast<std::int64_t>(second.object_generation));
  EXPECT_EQ(*ran[1].number("seq"), 2) << "the same message, once, with its own number";
}

TEST_F(ObjectMessagesTest, NothingStartsPastTheOwnersAdmissionDeadline) {
  make_with_handlers();
  const ActorRef ref = create(0, "p");
  const std::size_t owner = owner_index(ref);
  const std::size_t sender = owner == 1 ? 2 : 1;
  ASSERT_EQ(send_from(sender, kPlayer, "arm").outcome, SendOutcome::kRan);  // a timer due in 1 s
  // The owner loses the store: it cannot renew, and its admission closes before its lease ends.
  const platform::RoutingId owner_rid[] = {cluster->rid(owner)};
  const platform::RoutingId store_rid[] = {sim::kLocationStoreRoutingId};
  cluster->world().network().partition(owner_rid, store_rid);
  CreationNode* owner_node = cluster->node(owner);
  ASSERT_TRUE(cluster->run_until([&] { return !owner_node->lease().admission_open(); }, seconds(20)));
  EXPECT_EQ(cluster->events("object.turn", "turn", "timer").size(), 1u) << "the timer ran while admitted";
  const std::size_t turns_before = turns.size();
  const SendResult late = send_from(sender, kPlayer, "late");
  EXPECT_EQ(late.outcome, SendOutcome::kUnavailable);
  EXPECT_EQ(turns.size(), turns_before) << "a message never starts past the admission deadline (§5)";
  EXPECT_EQ(cluster->events("object.turn_refused", "outcome", "not_admitted").size(), 1u);
}

TEST_F(ObjectMessagesTest, ATimerOfARemovedInstanceNeverRuns) {
  make_with_handlers();
  const ActorRef ref = create(0, "p");
  ASSERT_EQ(send_from(0, kPlayer, "arm").outcome, SendOutcome::kRan);
  auto destroyed = call_on(0, [&](CreationNode& n) { return n.manager().destroy(ref, n.deadline_in(seconds(5))); });
  ASSERT_TRUE(destroyed.ok() && destroyed.value());
  cluster->run_for(seconds(3));
  EXPECT_TRUE(cluster->events("object.turn", "turn", "timer").empty()) << "its timers died with the instance";
  // And one that stays runs once, after its message.
  create(0, "p");
  ASSERT_EQ(send_from(0, kPlayer, "arm").outcome, SendOutcome::kRan);
  cluster->run_for(seconds(3));
  EXPECT_EQ(cluster->events("object.turn", "turn", "timer").size(), 1u);
  EXPECT_TRUE(turns.back().ends_with(":timer:tick"));
}

// Two removals of one instance may run at once (two Closes of its ID at the owner): one that
// failed releases only its own hold, so nothing runs while the other's Delete is in flight
// (message-storm swarm seed 5391 ran a queued message after the other Delete had applied).
TEST_F(ObjectMessagesTest, AnInstanceHeldByTwoRemovalsRunsNothingUntilBothReleased) {
  make_with_handlers();
  const ActorRef ref = create(0, "p");
  const std::size_t owner = owner_index(ref);
  const std::size_t sender = owner == 1 ? 2 : 1;
  const std::uint64_t generation = ref.object_generation;
  call_on(owner, [&](CreationNode& n) {
    EXPECT_TRUE(n.objects().hold(kPlayer, generation));
    EXPECT_TRUE(n.objects().hold(kPlayer, generation));
    EXPECT_FALSE(n.objects().hold(kPlayer, generation + 1)) << "no instance of that generation";
    return 0;
  });
  EXPECT_EQ(send_from(sender, kPlayer, "held").outcome, SendOutcome::kNoReply) << "queued, never started";
  call_on(owner, [&](CreationNode& n) {
    n.objects().release(kPlayer, generation);
    return 0;
  });
  cluster->run_for(seconds(1));
  EXPECT_TRUE(turns.empty()) << "the other removal still holds it";
  call_on(owner, [&](CreationNode& n) {
    n.objects().release(kPlayer, generation);
    return 0;
  });
  cluster->run_for(seconds(1));
  ASSERT_EQ(turns.size(), 1u);
  EXPECT_TRUE(turns[0].ends_with(":held"));
}

TEST_F(ObjectMessagesTest, WithTheCacheOffEveryMessageReadsTheStore) {
  ClusterOptions options = source_and_servers(2);
  options.location.route_cache_max_age_us = 0;
  make_with_handlers(std::move(options));
  create(0, "p");
  ASSERT_EQ(send_from(0, kPlayer, "a").outcome, SendOutcome::kRan);
  ASSERT_EQ(send_from(0, kPlayer, "b").outcome, SendOutcome::kRan);
  EXPECT_TRUE(cluster->events("cache.filled").empty());
  EXPECT_TRUE(cluster->events("cache.hit").empty());
  EXPECT_EQ(cluster->events("object.message_sent", "via", "store").size(), 2u);
}

}  // namespace
}  // namespace spotcheck::location::creation::testing
