// §12 Creation: "The same request can re-read the stored final result for 5 minutes from the
// original deadline." The same request = same source RID, source host run generation and
// OperationId; the answer is rebuilt from the store, the factory never runs again.
#include "impl/location/creation/stored_records.h"
#include "tests/location_creation/fixture.h"

namespace spotcheck::location::creation::testing {
namespace {

TEST_F(CreationTest, StoredResultIsReadableForFiveMinutesAfterTheDeadline) {
  make();
  const OperationId op{0x1111, 0x2222};
  platform::TimeUs deadline = 0;
  auto created = call_on(0, [&](CreationNode& n) {
    deadline = n.deadline_in(seconds(5));
    return n.manager().create_actor("p", "Player", deadline, CreateOptions{{}, {}, op});
  });
  ASSERT_MANAGER_OK(created);
  EXPECT_EQ(created.value().outcome, ReplyOutcome::kCreated);
  EXPECT_FALSE(created.value().from_store);
  const store::Key result_key =
      OperationKey{cluster->rid_hex(0), cluster->node(0)->lease().host_run().lease_generation, op}.result_key();

  auto same_request = [&](platform::TimeUs wait_until_local) {
    return call_on(0, [&](CreationNode& n) {
      n.platform().clock.sleep_until(wait_until_local);
      return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, op});
    }, seconds(600));
  };
  // Right away, and just before the retention ends: the stored result answers, freshly built.
  for (const platform::TimeUs at : {deadline, deadline + seconds(5 * 60) - seconds(2)}) {
    auto again = same_request(at);
    ASSERT_MANAGER_OK(again);
    EXPECT_TRUE(again.value().from_store);
    EXPECT_EQ(again.value().outcome, ReplyOutcome::kCreated);
    EXPECT_EQ(again.value().ref, created.value().ref);
    EXPECT_EQ(again.value().app_reply, created.value().app_reply);
  }
  EXPECT_EQ(factory.of("p"), 1);
  EXPECT_TRUE(std::holds_alternative<store::Found>(cluster->store().location_engine().read(result_key, platform::kNever)));
  // After it: gone. The request is new again and meets the Ready object: AlreadyExists.
  auto late = same_request(deadline + seconds(5 * 60) + seconds(2));
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error_kind(), ManagerErrorKind::kAlreadyExists);
  EXPECT_EQ(cluster->events("creation.result_expired").size(), 1u);
  EXPECT_TRUE(std::holds_alternative<store::Missing>(cluster->store().location_engine().read(result_key, platform::kNever)));
  EXPECT_EQ(factory.of("p"), 1);
}

TEST_F(CreationTest, AnotherOperationDoesNotReadTheResult) {
  make();
  auto created = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  const OperationId other{created.value().op_id.high, created.value().op_id.low + 1};
  auto again = call_on(0, [&](CreationNode& n) {
    return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, other});
  });
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error_kind(), ManagerErrorKind::kAlreadyExists);
  // Another node (another source RID and host run) with the same OperationId: not the same request.
  auto elsewhere = call_on(1, [&](CreationNode& n) {
    return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, created.value().op_id});
  });
  ASSERT_FALSE(elsewhere.ok());
  EXPECT_EQ(elsewhere.error_kind(), ManagerErrorKind::kAlreadyExists);
}

TEST_F(CreationTest, RejectedResultIsReReadToo) {
  make();
  factory.rule = [](const FactoryContext&) { return Decide::kReject; };
  const OperationId op{7, 7};
  auto rejected = call_on(0, [&](CreationNode& n) {
    return n.manager().get_or_create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, op});
  });
  ASSERT_MANAGER_OK(rejected);
  EXPECT_EQ(rejected.value().outcome, ReplyOutcome::kRejected);
  auto again = call_on(0, [&](CreationNode& n) {
    return n.manager().get_or_create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, op});
  });
  ASSERT_MANAGER_OK(again);
  EXPECT_TRUE(again.value().from_store);
  EXPECT_EQ(again.value().outcome, ReplyOutcome::kRejected);
  EXPECT_EQ(again.value().app_reply, "no p");
  EXPECT_EQ(factory.of("p"), 1);  // not created again: the same request was answered
}

// "It first checks whether a stored result for the same identifier exists before creation": a
// check whose read fails has not answered. The store refuses every request for 2 s while the same
// request is made again: the check is asked again until it answers, and the stored rejection is
// the answer. Taking the failed read as "none stored" ran the factory a second time and
// overwrote the stored result (found by exactly-one-creation, create-storm seed 29, once clients
// retried with their own OperationId).
TEST_F(CreationTest, TheCheckForAStoredResultIsAskedAgainWhenItsReadFails) {
  make();
  int runs = 0;  // the first run declines; a second run would create and overwrite the result
  factory.rule = [&runs](const FactoryContext&) { return ++runs == 1 ? Decide::kReject : Decide::kApprove; };
  const OperationId op{8, 8};
  auto rejected = call_on(0, [&](CreationNode& n) {
    return n.manager().get_or_create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, op});
  });
  ASSERT_MANAGER_OK(rejected);
  ASSERT_EQ(rejected.value().outcome, ReplyOutcome::kRejected);
  cluster->store().begin_outage();
  cluster->world().at(cluster->world().now_us() + seconds(2), [this] { cluster->store().end_outage(); });
  auto again = call_on(0, [&](CreationNode& n) {
    return n.manager().get_or_create_actor("p", "Player", n.deadline_in(seconds(10)), CreateOptions{{}, {}, op});
  });
  ASSERT_MANAGER_OK(again);
  EXPECT_TRUE(again.value().from_store);
  EXPECT_EQ(again.value().outcome, ReplyOutcome::kRejected);
  EXPECT_EQ(factory.of("p"), 1);
  EXPECT_EQ(cluster->events("authority.reserve", "outcome", "applied").size(), 1u);
}

// §9.3: an OperationId is non-zero. A caller's own zero OperationId is refused before anything.
TEST_F(CreationTest, AZeroOperationIdOfTheCallersIsInvalidArgument) {
  make();
  auto refused = call_on(0, [](CreationNode& n) {
    return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, OperationId{0, 0}});
  });
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error_kind(), ManagerErrorKind::kInvalidArgument);
  EXPECT_EQ(factory.of("p"), 0);
  EXPECT_TRUE(cluster->events("creation.requested").empty());
}

TEST_F(CreationTest, TheSameCallSubmittedTwiceAtOnceIsInvalidOperation) {
  make();
  factory.delay_us = millis(300);
  const OperationId op{9, 9};
  std::optional<ManagerResult<CreateReply>> first;
  std::optional<ManagerResult<CreateReply>> second;
  cluster->spawn_on(0, [&](CreationNode& n) {
    first.emplace(n.manager().create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, op}));
  });
  cluster->spawn_on(0, [&](CreationNode& n) {
    n.platform().clock.sleep_for(millis(50));
    second.emplace(n.manager().create_actor("p", "Player", n.deadline_in(seconds(5)), CreateOptions{{}, {}, op}));
  });
  ASSERT_TRUE(cluster->run_until([&] { return first && second; }, seconds(10)));
  ASSERT_MANAGER_OK(*first);
  ASSERT_FALSE(second->ok());
  EXPECT_EQ(second->error_kind(), ManagerErrorKind::kInvalidOperation);
}

}  // namespace
}  // namespace spotcheck::location::creation::testing
