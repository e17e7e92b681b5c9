// Find, Destroy and Close (spec §7.2): Find returns only the current Ready object; Destroy and
// Close act only on the ref's generation — missing -> false, another generation -> stale
// generation; the owner removes it (locally, or over command 48 from another node).
#include "tests/location_creation/fixture.h"

namespace spotcheck::location::creation::testing {
namespace {

TEST_F(CreationTest, FindReturnsOnlyTheReadyObject) {
  make();
  auto before = call_on(0, [](CreationNode& n) { return n.manager().find_actor("p"); });
  ASSERT_MANAGER_OK(before);
  EXPECT_FALSE(before.value().has_value());
  factory.delay_us = millis(500);
  std::optional<ManagerResult<CreateReply>> created;
  cluster->spawn_on(0, [&](CreationNode& n) { created.emplace(n.manager().create_actor("p", "Player", n.deadline_in(seconds(5)))); });
  cluster->run_until([this] { return !cluster->events("creation.factory_run").empty(); }, seconds(2));
  auto creating = call_on(0, [](CreationNode& n) { return n.manager().find_actor("p"); });
  ASSERT_MANAGER_OK(creating);
  EXPECT_FALSE(creating.value().has_value()) << "a Creating row is not an object";
  ASSERT_TRUE(cluster->run_until([&] { return created.has_value(); }, seconds(5)));
  ASSERT_MANAGER_OK(*created);
  auto ready = call_on(0, [](CreationNode& n) { return n.manager().find_actor("p"); });
  ASSERT_MANAGER_OK(ready);
  ASSERT_TRUE(ready.value().has_value());
  EXPECT_EQ(*ready.value(), created->value().ref);
  // The same Id as a Spot is another key: nothing there.
  auto spot = call_on(0, [](CreationNode& n) { return n.manager().find_spot("p"); });
  ASSERT_MANAGER_OK(spot);
  EXPECT_FALSE(spot.value().has_value());
}

TEST_F(CreationTest, DestroyActsOnlyOnTheRefsGeneration) {
  make();
  auto first = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(first);
  const ActorRef ref1 = first.value().ref;
  // From the client node: over command 48 to the owner.
  auto destroyed = call_on(0, [&](CreationNode& n) { return n.manager().destroy(ref1, n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(destroyed);
  EXPECT_TRUE(destroyed.value());
  EXPECT_EQ(cluster->events("close.reply_delivered", "outcome", "closed").size(), 1u);
  auto missing = call_on(0, [&](CreationNode& n) { return n.manager().destroy(ref1, n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(missing);
  EXPECT_FALSE(missing.value());
  auto second = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(second);
  const ActorRef ref2 = second.value().ref;
  EXPECT_GT(ref2.object_generation, ref1.object_generation);
  auto stale = call_on(0, [&](CreationNode& n) { return n.manager().destroy(ref1, n.deadline_in(seconds(5))); });
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error_kind(), ManagerErrorKind::kStaleGeneration) << "the newer object must not be destroyed";
  auto still = call_on(0, [](CreationNode& n) { return n.manager().find_actor("p"); });
  ASSERT_MANAGER_OK(still);
  ASSERT_TRUE(still.value().has_value());
  EXPECT_EQ(*still.value(), ref2);
  // On the owner itself: a local Delete.
  auto local = call_on(1, [&](CreationNode& n) { return n.manager().destroy(ref2, n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(local);
  EXPECT_TRUE(local.value());
  EXPECT_EQ(cluster->events("authority.delete", "outcome", "applied").size(), 2u);
}

TEST_F(CreationTest, CloseUserSpotAndKindChecks) {
  make();
  auto spot = call_on(0, [](CreationNode& n) { return n.manager().create_user_spot("Room", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(spot);
  const SpotRef ref = spot.value().ref;
  auto wrong_kind = call_on(0, [&](CreationNode& n) { return n.manager().destroy(ref, n.deadline_in(seconds(5))); });
  ASSERT_FALSE(wrong_kind.ok());
  EXPECT_EQ(wrong_kind.error_kind(), ManagerErrorKind::kInvalidArgument);
  auto closed = call_on(0, [&](CreationNode& n) { return n.manager().close(ref, n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(closed);
  EXPECT_TRUE(closed.value());
  auto found = call_on(0, [&](CreationNode& n) { return n.manager().find_spot(ref.id); });
  ASSERT_MANAGER_OK(found);
  EXPECT_FALSE(found.value().has_value());
  // Capacity returned: the spot and spot-type slots went back to 0.
  std::int64_t spots = 0;
  for (const auto& change : cluster->events("capacity.changed", "counter", "spots")) {
    spots += *change.number("delta");
  }
  EXPECT_EQ(spots, 0);
}

TEST_F(CreationTest, CloseWithoutAReplyIsDeadlineExceededNotAStoreGuess) {
  make();
  auto created = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  sim::LinkConfig lossy;
  lossy.loss_probability = 1.0;
  cluster->world().network().set_link_config(cluster->rid(1), cluster->rid(0), lossy);
  platform::TimeUs deadline = 0;
  platform::TimeUs ended = 0;
  auto closed = call_on(0, [&](CreationNode& n) {
    deadline = n.deadline_in(seconds(2));
    auto result = n.manager().destroy(created.value().ref, deadline);
    ended = n.platform().clock.now_us();
    return result;
  });
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.error_kind(), ManagerErrorKind::kDeadlineExceeded);
  EXPECT_LE(ended, deadline);
  EXPECT_EQ(cluster->events("authority.delete", "outcome", "applied").size(), 1u);  // it did close, once
}

}  // namespace
}  // namespace spotcheck::location::creation::testing

namespace spotcheck::location::creation::testing {
namespace {

// §12 "A location looked up by global ID returns the same result independent of MeshName": the
// authority key is (kind, Id) only, so nodes of two meshes find the same ref for one Id.
class CrossMeshTest : public CreationTest {};

TEST_F(CrossMeshTest, LookupByGlobalIdIsIndependentOfMeshName) {
  NodeSpec lobby;
  lobby.mesh = "lobby";
  ClusterOptions options;
  options.nodes = {NodeSpec{}, lobby};
  make(options);
  auto created = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  EXPECT_EQ(created.value().ref.mesh_name, "game");
  auto from_game = call_on(0, [](CreationNode& n) { return n.manager().find_actor("p"); });
  auto from_lobby = call_on(1, [](CreationNode& n) { return n.manager().find_actor("p"); });
  ASSERT_MANAGER_OK(from_game);
  ASSERT_MANAGER_OK(from_lobby);
  ASSERT_TRUE(from_game.value().has_value());
  ASSERT_TRUE(from_lobby.value().has_value());
  EXPECT_EQ(*from_game.value(), *from_lobby.value());
  EXPECT_EQ(*from_lobby.value(), created.value().ref);
  // An object placed in the other mesh is found the same way from both.
  auto in_lobby = call_on(1, [](CreationNode& n) { return n.manager().create_actor("q", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(in_lobby);
  EXPECT_EQ(in_lobby.value().ref.mesh_name, "lobby");
  auto q_from_game = call_on(0, [](CreationNode& n) { return n.manager().find_actor("q"); });
  ASSERT_MANAGER_OK(q_from_game);
  ASSERT_TRUE(q_from_game.value().has_value());
  EXPECT_EQ(*q_from_game.value(), in_lobby.value().ref);
}

}  // namespace
}  // namespace spotcheck::location::creation::testing
