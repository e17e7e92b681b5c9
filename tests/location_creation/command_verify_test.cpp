// §12 Creation: "Commands 47/48 verify source and target run generation, OperationId, the
// creation record, StoreVersion, and object generation, and command 20's result is returned
// exactly once." Hand-built commands are sent from a client node to the object server; a wrong
// field is refused (`cancelled`) before any factory runs; the right command creates once; a
// resent command is answered again with its own correlation, and a caller gets one reply.
#include "impl/location/creation/stored_records.h"
#include "impl/location/descriptor/descriptor_list.h"
#include "impl/records/keys.h"
#include "tests/location_creation/fixture.h"

namespace spotcheck::location::creation::testing {
namespace {

using messaging::CloseCommand;
using messaging::CreateCommand;
using messaging::FinalResultReply;

// Reserves `id` on node 1 from `source` like CreationClient does, and returns the right command.
CreateCommand reserve_by_hand(CreationNode& source, const std::string& target_rid_hex, const std::string& id,
                              const OperationId& op, records::ObjectKind kind = records::ObjectKind::kActor,
                              const std::string& type = "Player") {
  const records::AuthorityKind authority =
      records::is_spot(kind) ? records::AuthorityKind::kSpot : records::AuthorityKind::kActor;
  Result<DescriptorList> list =
      read_descriptor_list(source.store(), source.platform(), LocationConfig{}, source.mesh_name());
  EXPECT_TRUE(list.ok());
  NodeView target;
  for (const NodeView& node : list.value().nodes) {
    if (node.descriptor.routing_id_hex == target_rid_hex) {
      target = node;
    }
  }
  const HostRun& self = source.lease().host_run();
  CreationRequestRecord request;
  request.operation = OperationKey{source.rid_hex(), self.lease_generation, op};
  request.source = messaging::WireHostRun{self.owner_id, self.lease_generation};
  request.object_kind = kind;
  request.id = id;
  request.stable_type = type;
  request.deadline_store_ms = source.lease().estimated_store_now_ms() + 20'000;
  request.reservation_id = op.hex();
  const std::string bytes = encode(request);
  const records::PendingCreation pending{op.hex(), creation_request_reference(op.hex()), records::sha256_hex(bytes),
                                         bytes.size()};
  Result<AuthoritySnapshot> reserved = source.authority().reserve(
      ReserveRequest{AuthorityKey{authority, id}, kind, type, "", pending},
      target, {store::Put{creation_request_key(op.hex()), bytes}});
  EXPECT_TRUE(reserved.ok()) << describe(reserved.error());
  CreateCommand command;
  command.op_id = op;
  command.source_rid_hex = source.rid_hex();
  command.source = request.source;
  command.target = messaging::WireHostRun{reserved.value().record.owner_id, reserved.value().record.owner_lease_generation};
  command.object_kind = kind;
  command.id = id;
  command.stable_type = type;
  command.object_generation = reserved.value().record.object_generation;
  command.store_version = reserved.value().version.value;
  command.reservation_id = op.hex();
  command.deadline_store_ms = request.deadline_store_ms;
  return command;
}

// Sends `command` and waits for the reply; then sends it `copies - 1` more times under the same
// correlation: the target answers each again, and the caller must not get a second reply.
template <class Command>
std::optional<FinalResultReply> exchange(CreationNode& source, platform::RoutingId to, Command command, int copies = 1) {
  messaging::Dispatcher::PendingCall call = source.dispatcher().open_call();
  command.request = call.request();
  source.dispatcher().send(to, messaging::Command{command});
  std::optional<FinalResultReply> reply = call.wait(source.deadline_in(seconds(2)));
  if (reply.has_value()) {
    EXPECT_EQ(reply->request, call.request());
    for (int i = 1; i < copies; ++i) {
      source.dispatcher().send(to, messaging::Command{command});
    }
    EXPECT_FALSE(call.wait(source.deadline_in(millis(200))).has_value()) << "a second reply reached the caller";
  }
  return reply;
}

struct Variant {
  const char* name;
  std::function<void(CreateCommand&)> spoil;
  const char* reason;
};

// Every field a create command must match, spoiled one at a time: refused before the factory.
std::vector<Variant> spoiled_fields(Cluster& cluster) {
  return {
      {"target host run", [](CreateCommand& c) { ++c.target.lease_generation; }, "another target host run"},
      {"source rid", [&cluster](CreateCommand& c) { c.source_rid_hex = cluster.rid_hex(1); }, "source RID"},
      {"source host run", [](CreateCommand& c) { ++c.source.lease_generation; }, "another operation or source"},
      {"operation id", [](CreateCommand& c) { ++c.op_id.low; }, "another operation or source"},
      {"store version", [](CreateCommand& c) { ++c.store_version; }, "not the one the source secured"},
      {"object generation", [](CreateCommand& c) { ++c.object_generation; }, "not the one the source secured"},
      {"reservation", [](CreateCommand& c) { c.reservation_id = "someone-else"; }, "not the one the source secured"},
      {"stable type", [](CreateCommand& c) { c.stable_type = "Monster"; }, "not the one the source secured"},
  };
}

// Command 49 (Actor) or 47 (User Spot): each spoiled field is refused (`cancelled`) before any
// factory runs; the right command creates, once.
void expect_create_commands_verified(Cluster& cluster, CountingFactory& factory, records::ObjectKind kind,
                                     const std::string& type) {
  const std::vector<Variant> variants = spoiled_fields(cluster);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const Variant& variant = variants[i];
    std::optional<FinalResultReply> reply;
    cluster.run_on(0, [&](CreationNode& n) {
      CreateCommand command =
          reserve_by_hand(n, cluster.rid_hex(1), "v" + std::to_string(i), OperationId{100 + i, 1}, kind, type);
      EXPECT_EQ(command.code(), kind == records::ObjectKind::kActor ? messaging::CommandCode::kActorCreate
                                                                    : messaging::CommandCode::kUserSpotCreate);
      variant.spoil(command);
      reply = exchange(n, cluster.rid(1), command);
    });
    ASSERT_TRUE(reply.has_value()) << variant.name;
    EXPECT_EQ(reply->outcome, ReplyOutcome::kCancelled) << variant.name;
    EXPECT_NE(reply->message.find(variant.reason), std::string::npos) << variant.name << ": " << reply->message;
    EXPECT_EQ(factory.total(), 0) << variant.name << " reached the factory";
  }
  std::optional<FinalResultReply> created;
  cluster.run_on(0, [&](CreationNode& n) {
    created = exchange(n, cluster.rid(1), reserve_by_hand(n, cluster.rid_hex(1), "good", OperationId{200, 1}, kind, type));
  });
  ASSERT_TRUE(created.has_value());
  EXPECT_EQ(created->outcome, ReplyOutcome::kCreated) << created->message;
  ASSERT_TRUE(created->ref.has_value());
  EXPECT_EQ(created->ref->id, "good");
  EXPECT_EQ(factory.of("good"), 1);
}

TEST_F(CreationTest, CreateCommandsAreVerifiedBeforeTheFactory) {
  make();
  expect_create_commands_verified(*cluster, factory, records::ObjectKind::kActor, "Player");
}

// Command 47: a User Spot's create command, each field spoiled the same way.
TEST_F(CreationTest, UserSpotCreateCommandsAreVerifiedBeforeTheFactoryToo) {
  make();
  expect_create_commands_verified(*cluster, factory, records::ObjectKind::kUserSpot, "Room");
}

TEST_F(CreationTest, CommandTwentyReachesTheCallerExactlyOnce) {
  make();
  std::optional<FinalResultReply> first;
  std::optional<FinalResultReply> again;
  cluster->run_on(0, [&](CreationNode& n) {
    CreateCommand command = reserve_by_hand(n, cluster->rid_hex(1), "p", OperationId{300, 1});
    first = exchange(n, cluster->rid(1), command, /*copies=*/3);  // one correlation, three copies
    again = exchange(n, cluster->rid(1), command);                 // a new call: a fresh answer
  });
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(first->outcome, ReplyOutcome::kCreated);
  EXPECT_EQ(again->outcome, ReplyOutcome::kCreated);
  EXPECT_NE(first->request, again->request);  // rebuilt with the asking call's correlation
  EXPECT_EQ(first->ref, again->ref);
  EXPECT_EQ(factory.of("p"), 1);
  EXPECT_EQ(cluster->events("authority.commit", "outcome", "applied").size(), 1u);
  EXPECT_EQ(cluster->events("creation.result").size(), 1u);
  EXPECT_GE(cluster->events("messaging.late_reply").size(), 1u) << "the duplicate answers were dropped";
}

TEST_F(CreationTest, CloseCommandsTargetOnlyTheRefsGenerationAndAnswerOnce) {
  make();
  auto created = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  CloseCommand base;
  cluster->run_on(0, [&](CreationNode& n) {
    const auto read = n.authority().read(AuthorityKey{records::AuthorityKind::kActor, "p"});
    ASSERT_TRUE(read.ok() && read.value().current.has_value());
    const AuthoritySnapshot& row = *read.value().current;
    base.source_rid_hex = n.rid_hex();
    base.source = messaging::WireHostRun{n.lease().host_run().owner_id, n.lease().host_run().lease_generation};
    base.target = messaging::WireHostRun{row.record.owner_id, row.record.owner_lease_generation};
    base.kind = records::AuthorityKind::kActor;
    base.id = "p";
    base.object_generation = row.record.object_generation;
    base.owner_generation = row.record.authority_owner_generation;
    base.store_version = row.version.value;
    base.deadline_store_ms = n.lease().estimated_store_now_ms() + 10'000;
  });
  struct Case {
    std::function<void(CloseCommand&)> spoil;
    ReplyOutcome expected;
  };
  const std::vector<Case> cases = {
      {[](CloseCommand& c) { ++c.target.lease_generation; }, ReplyOutcome::kCancelled},
      {[](CloseCommand& c) { ++c.object_generation; }, ReplyOutcome::kStaleGeneration},
      {[](CloseCommand& c) { ++c.owner_generation; }, ReplyOutcome::kMoving},
      {[](CloseCommand& c) { ++c.store_version; }, ReplyOutcome::kCancelled},     // §7.2: the record read
      {[](CloseCommand& c) { c.deadline_store_ms -= 60'000; }, ReplyOutcome::kCancelled},  // deadline passed
      // §7.2 / §12: the source's host run is fixed too: a command whose source RID is not its
      // sender, or whose source host run's lease has ended (an earlier or unknown run), never acts.
      {[](CloseCommand& c) { c.source_rid_hex = "00000000000000ff"; }, ReplyOutcome::kCancelled},
      {[](CloseCommand& c) { ++c.source.lease_generation; }, ReplyOutcome::kCancelled},
      {[](CloseCommand& c) { c.source.owner_id = "a-host-run-that-never-was"; }, ReplyOutcome::kCancelled},
      {[](CloseCommand&) {}, ReplyOutcome::kClosed},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::optional<FinalResultReply> reply;
    cluster->run_on(0, [&](CreationNode& n) {
      CloseCommand command = base;
      command.op_id = OperationId{400, i + 1};
      cases[i].spoil(command);
      reply = exchange(n, cluster->rid(1), command, /*copies=*/2);
    });
    ASSERT_TRUE(reply.has_value()) << i;
    EXPECT_EQ(reply->outcome, cases[i].expected) << i << ": " << reply->message;
  }
  // The closed answer again for the same operation; the row was deleted once.
  std::optional<FinalResultReply> again;
  cluster->run_on(0, [&](CreationNode& n) {
    CloseCommand command = base;
    command.op_id = OperationId{400, cases.size()};
    again = exchange(n, cluster->rid(1), command);
  });
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->outcome, ReplyOutcome::kClosed);
  EXPECT_EQ(cluster->events("authority.delete", "outcome", "applied").size(), 1u);
  EXPECT_EQ(cluster->events("close.result").size(), cases.size());
}

}  // namespace
}  // namespace spotcheck::location::creation::testing
