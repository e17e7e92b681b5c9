// Create / GetOrCreate (spec §7): IDs, the table of outcomes against the current record, waiting
// for an in-progress creation, deadlines.
#include "tests/location_creation/fixture.h"

namespace spotcheck::location::creation::testing {
namespace {

TEST_F(CreationTest, CreateActorRunsTheFactoryOnTheTargetAndReturnsTheRef) {
  make();
  auto created = call_on(0, [](CreationNode& n) {
    return n.manager().create_actor("player:1", "Player", n.deadline_in(seconds(5)));
  });
  ASSERT_MANAGER_OK(created);
  EXPECT_EQ(created.value().outcome, ReplyOutcome::kCreated);
  EXPECT_FALSE(created.value().from_store);
  EXPECT_EQ(created.value().app_reply, "hello player:1");
  const ObjectRef& ref = created.value().ref;
  EXPECT_EQ(ref.kind, records::AuthorityKind::kActor);
  EXPECT_EQ(ref.id, "player:1");
  EXPECT_GT(ref.object_generation, 0u);
  EXPECT_EQ(ref.mesh_name, "game");
  EXPECT_EQ(ref.node_rid_hex, cluster->rid_hex(1));  // the only object server
  EXPECT_EQ(factory.of("player:1"), 1);
  EXPECT_EQ(cluster->events("creation.factory_run").size(), 1u);
  EXPECT_EQ(cluster->events("creation.factory_run")[0].node, cluster->pid(1));
  EXPECT_EQ(cluster->events("creation.reply_delivered").size(), 1u);
}

TEST_F(CreationTest, UserSpotCreateIssuesAUuidV4SpotId) {
  make();
  auto first = call_on(0, [](CreationNode& n) { return n.manager().create_user_spot("Room", n.deadline_in(seconds(5))); });
  auto second = call_on(0, [](CreationNode& n) { return n.manager().create_user_spot("Room", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(first);
  ASSERT_MANAGER_OK(second);
  EXPECT_EQ(first.value().outcome, ReplyOutcome::kCreated);
  EXPECT_TRUE(is_uuid_v4(first.value().ref.id)) << first.value().ref.id;
  EXPECT_TRUE(is_uuid_v4(second.value().ref.id));
  EXPECT_NE(first.value().ref.id, second.value().ref.id);
  EXPECT_EQ(first.value().ref.kind, records::AuthorityKind::kSpot);
  EXPECT_EQ(factory.total(), 2);
  // A User Spot holds 1 spot slot plus 1 slot of its type (§3.3), counted on the target.
  EXPECT_EQ(cluster->events("capacity.changed", "counter", "spot-type").size(), 2u);
}

TEST_F(CreationTest, CreateOfAReadyIdIsAlreadyExistsAndGetOrCreateReturnsTheRef) {
  make();
  auto created = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  auto again = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error_kind(), ManagerErrorKind::kAlreadyExists);
  auto existing = call_on(0, [](CreationNode& n) {
    return n.manager().get_or_create_actor("p", "Player", n.deadline_in(seconds(5)));
  });
  ASSERT_MANAGER_OK(existing);
  EXPECT_EQ(existing.value().outcome, ReplyOutcome::kExisting);
  EXPECT_EQ(existing.value().ref, created.value().ref);
  EXPECT_EQ(factory.of("p"), 1);
}

TEST_F(CreationTest, AnotherTypeOrKindIsTypeMismatchForBothCalls) {
  make();
  ASSERT_MANAGER_OK(call_on(0, [](CreationNode& n) {
    return n.manager().get_or_create_user_spot("room:1", "Room", n.deadline_in(seconds(5)));
  }));
  // A User Spot of another stable type under the same SpotId.
  auto other_type = call_on(0, [](CreationNode& n) {
    return n.manager().get_or_create_user_spot("room:1", "Lobby", n.deadline_in(seconds(5)));
  });
  ASSERT_FALSE(other_type.ok());
  EXPECT_EQ(other_type.error_kind(), ManagerErrorKind::kTypeMismatch) << describe(other_type.error());
  ASSERT_MANAGER_OK(call_on(0, [](CreationNode& n) {
    return n.manager().get_or_create_actor("hero", "Player", n.deadline_in(seconds(5)));
  }));
  // An actor row exists; the same ID as another Actor type is a TypeMismatch, for Create too.
  for (const CreateMode mode : {CreateMode::kCreate, CreateMode::kGetOrCreate}) {
    auto other = call_on(0, [mode](CreationNode& n) {
      return mode == CreateMode::kCreate ? n.manager().create_actor("hero", "Monster", n.deadline_in(seconds(5)))
                                         : n.manager().get_or_create_actor("hero", "Monster", n.deadline_in(seconds(5)));
    });
    ASSERT_FALSE(other.ok());
    EXPECT_EQ(other.error_kind(), ManagerErrorKind::kTypeMismatch) << describe(other.error());
  }
  EXPECT_EQ(factory.total(), 2);
}

TEST_F(CreationTest, GetOrCreateWaitsForTheCreationInProgress) {
  make(source_and_servers(1));
  factory.delay_us = millis(800);
  std::optional<ManagerResult<CreateReply>> first;
  std::optional<ManagerResult<CreateReply>> waiter;
  std::optional<ManagerResult<CreateReply>> create;
  cluster->spawn_on(0, [&](CreationNode& n) { first.emplace(n.manager().get_or_create_actor("slow", "Player", n.deadline_in(seconds(5)))); });
  cluster->run_for(millis(300));  // the first call's Creating row exists, its factory is running
  cluster->spawn_on(1, [&](CreationNode& n) { waiter.emplace(n.manager().get_or_create_actor("slow", "Player", n.deadline_in(seconds(5)))); });
  cluster->spawn_on(1, [&](CreationNode& n) { create.emplace(n.manager().create_actor("slow", "Player", n.deadline_in(seconds(5)))); });
  ASSERT_TRUE(cluster->run_until([&] { return first && waiter && create; }, seconds(10)));
  ASSERT_MANAGER_OK(*first);
  ASSERT_MANAGER_OK(*waiter);
  EXPECT_EQ(first->value().outcome, ReplyOutcome::kCreated);
  EXPECT_EQ(waiter->value().outcome, ReplyOutcome::kExisting);
  EXPECT_EQ(waiter->value().ref, first->value().ref);
  ASSERT_FALSE(create->ok());
  EXPECT_EQ(create->error_kind(), ManagerErrorKind::kAlreadyExists);  // Creating + Create
  EXPECT_EQ(factory.of("slow"), 1);
}

TEST_F(CreationTest, WaitingPastTheDeadlineIsDeadlineExceededAndEndsByTheDeadline) {
  make(source_and_servers(1));
  factory.delay_us = seconds(3);
  std::optional<ManagerResult<CreateReply>> first;
  std::optional<ManagerResult<CreateReply>> waiter;
  platform::TimeUs waiter_deadline = 0;
  platform::TimeUs waiter_end = 0;
  cluster->spawn_on(0, [&](CreationNode& n) { first.emplace(n.manager().get_or_create_actor("slow", "Player", n.deadline_in(seconds(10)))); });
  cluster->run_for(millis(300));
  cluster->spawn_on(1, [&](CreationNode& n) {
    waiter_deadline = n.deadline_in(seconds(1));
    waiter.emplace(n.manager().get_or_create_actor("slow", "Player", waiter_deadline));
    waiter_end = n.platform().clock.now_us();
  });
  ASSERT_TRUE(cluster->run_until([&] { return first && waiter; }, seconds(15)));
  ASSERT_FALSE(waiter->ok());
  EXPECT_EQ(waiter->error_kind(), ManagerErrorKind::kDeadlineExceeded);
  EXPECT_LE(waiter_end, waiter_deadline);
  ASSERT_MANAGER_OK(*first);
  EXPECT_EQ(first->value().outcome, ReplyOutcome::kCreated);
  // The next call re-reads the store and finds the object Ready.
  auto next = call_on(1, [](CreationNode& n) { return n.manager().get_or_create_actor("slow", "Player", n.deadline_in(seconds(2))); });
  ASSERT_MANAGER_OK(next);
  EXPECT_EQ(next.value().outcome, ReplyOutcome::kExisting);
}

TEST_F(CreationTest, RejectedAndFailedAreDistinctResults) {
  make();
  factory.rule = [](const FactoryContext& c) { return c.id == "no" ? Decide::kReject : Decide::kThrow; };
  auto rejected = call_on(0, [](CreationNode& n) { return n.manager().create_actor("no", "Player", n.deadline_in(seconds(5))); });
  auto failed = call_on(0, [](CreationNode& n) { return n.manager().create_actor("boom", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(rejected);
  ASSERT_MANAGER_OK(failed);
  EXPECT_EQ(rejected.value().outcome, ReplyOutcome::kRejected);
  EXPECT_EQ(rejected.value().app_reply, "no no");
  EXPECT_EQ(failed.value().outcome, ReplyOutcome::kFailed);
  EXPECT_NE(failed.value().message.find("factory of boom failed"), std::string::npos) << failed.value().message;
  // Both rows are gone: the IDs can be created again.
  factory.rule = [](const FactoryContext&) { return Decide::kApprove; };
  auto retry = call_on(0, [](CreationNode& n) { return n.manager().create_actor("no", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(retry);
  EXPECT_EQ(retry.value().outcome, ReplyOutcome::kCreated);
}

TEST_F(CreationTest, InvalidArgumentsNeverReachTheStore) {
  make();
  const std::size_t writes = cluster->writes().size();
  auto empty = call_on(0, [](CreationNode& n) { return n.manager().create_actor("", "Player", n.deadline_in(seconds(5))); });
  auto nul = call_on(0, [](CreationNode& n) {
    return n.manager().create_actor(std::string("a\0b", 3), "Player", n.deadline_in(seconds(5)));
  });
  auto long_id = call_on(0, [](CreationNode& n) { return n.manager().create_actor(std::string(256, 'x'), "Player", n.deadline_in(seconds(5))); });
  for (const auto* result : {&empty, &nul, &long_id}) {
    ASSERT_FALSE(result->ok());
    EXPECT_EQ(result->error_kind(), ManagerErrorKind::kInvalidArgument);
  }
  EXPECT_EQ(cluster->writes().size(), writes);
}

TEST_F(CreationTest, NoObjectServerIsNotConfigured) {
  ClusterOptions options;
  options.nodes = {NodeSpec{records::ObjectRole::kClient, 0}};
  make(options);
  auto none = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error_kind(), ManagerErrorKind::kNotConfigured);
}

}  // namespace
}  // namespace spotcheck::location::creation::testing
