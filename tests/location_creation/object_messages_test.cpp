// The object runtime and the location cache on real CreationNodes (spec §5, §7.1, §7.3): a
// regular message to an object by its ID runs as one turn of its instance on the owner, the
// next goes over the cached location, Missing and Creating are never cached, a route to a removed
// generation is dropped and the object looked up again, a message or timer callback never starts
// past the owner's admission deadline, and a timer of a removed instance never runs.
#include "tests/location_creation/fixture.h"

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
