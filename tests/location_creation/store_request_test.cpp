// §12 Creation: "When creation finishes, it records Ready, capacity, and the final result
// together, or record deletion, space return, and a failure result together." and "The Creating
// record and securing/using/returning space are each handled as one Store request, and the same
// space info isn't duplicated in Framework-internal bytes." Judged on the store writes the nodes
// sent (every write is logged) and on the store afterwards.
#include "impl/location/creation/stored_records.h"
#include "impl/location/keys/counter_keys.h"
#include "tests/location_creation/fixture.h"

namespace spotcheck::location::creation::testing {
namespace {

// The applied writes that touch `key` first (the authority row leads every authority write).
std::vector<const LoggedWrite*> writes_of(const Cluster& cluster, const store::Key& key) {
  std::vector<const LoggedWrite*> out;
  for (const LoggedWrite& write : cluster.writes()) {
    const store::Mutation& first = write.request.mutations.front();
    const store::Key& first_key = std::holds_alternative<store::Put>(first) ? std::get<store::Put>(first).key
                                  : std::holds_alternative<store::Delete>(first) ? std::get<store::Delete>(first).key
                                                                                 : std::get<store::Increment>(first).key;
    if (first_key == key && write.outcome == "applied") {
      out.push_back(&write);
    }
  }
  return out;
}

struct Summary {
  std::vector<store::Key> puts;
  std::vector<store::Key> deletes;
  std::map<store::Key, std::int64_t> increments;
  std::vector<store::Key> expect_absent;
};

Summary summarize(const store::WriteRequest& request) {
  Summary s;
  for (const auto& m : request.mutations) {
    if (const auto* put = std::get_if<store::Put>(&m)) {
      s.puts.push_back(put->key);
    } else if (const auto* del = std::get_if<store::Delete>(&m)) {
      s.deletes.push_back(del->key);
    } else {
      const auto& inc = std::get<store::Increment>(m);
      s.increments[inc.key] = inc.delta;
    }
  }
  for (const auto& c : request.conditions) {
    if (const auto* absent = std::get_if<store::ExpectAbsent>(&c)) {
      s.expect_absent.push_back(absent->key);
    }
  }
  return s;
}

bool has(const std::vector<store::Key>& keys, std::string_view prefix) {
  return std::any_of(keys.begin(), keys.end(), [prefix](const store::Key& k) { return k.rfind(prefix, 0) == 0; });
}

std::optional<store::Found> stored(Cluster& cluster, const store::Key& key) {
  const store::ReadResult read = cluster.store().location_engine().read(key, platform::kNever);
  if (const auto* found = std::get_if<store::Found>(&read)) {
    return *found;
  }
  return std::nullopt;
}

TEST_F(CreationTest, ReserveIsOneRequestWithRowCapacityAndRequest) {
  make();
  ASSERT_MANAGER_OK(call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); }));
  const auto writes = writes_of(*cluster, actor_key("p"));
  ASSERT_EQ(writes.size(), 2u);  // Reserve, then Commit
  const Summary reserve = summarize(writes[0]->request);
  EXPECT_TRUE(std::count(reserve.expect_absent.begin(), reserve.expect_absent.end(), actor_key("p")) == 1);
  EXPECT_TRUE(has(reserve.puts, "creation-request"));
  const store::Key actors = keys::capacity_actors("game", cluster->rid_hex(1));
  EXPECT_EQ(reserve.increments.at(actors), 1);
  EXPECT_EQ(reserve.increments.at(keys::object_generation_counter()), 1);
  // The stored creation request repeats no placement or capacity (it lives in the row only).
  for (const auto& m : writes[0]->request.mutations) {
    const auto* put = std::get_if<store::Put>(&m);
    if (put != nullptr && put->key.rfind("creation-request", 0) == 0) {
      const auto request = decode_creation_request(put->value);
      ASSERT_TRUE(request.has_value());
      EXPECT_EQ(request->id, "p");
      for (const char* word : {"capacity", "allocation", "actors", "mesh"}) {
        EXPECT_EQ(put->value.find(word), std::string::npos) << word;
      }
    }
  }
}

TEST_F(CreationTest, ApprovedCommitsReadyAndRecordsCreatedInOneRequest) {
  make();
  auto created = call_on(0, [](CreationNode& n) { return n.manager().create_actor("p", "Player", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  const auto writes = writes_of(*cluster, actor_key("p"));
  ASSERT_EQ(writes.size(), 2u);
  const Summary commit = summarize(writes[1]->request);
  EXPECT_EQ(writes[1]->node, 1u) << "the target records the result";
  EXPECT_TRUE(has(commit.puts, "creation-result"));
  EXPECT_TRUE(has(commit.deletes, "creation-request"));
  EXPECT_TRUE(commit.increments.empty()) << "the space secured by Reserve is now in use, unchanged";
  // The store now holds the Active row, the final result and the capacity in use; no request.
  const auto row = stored(*cluster, actor_key("p"));
  ASSERT_TRUE(row.has_value());
  EXPECT_NE(row->value.find("\"state\":\"active\""), std::string::npos);
  EXPECT_EQ(row->value.find("\"pendingCreation\":{"), std::string::npos);
  const store::Key result_key =
      OperationKey{cluster->rid_hex(0), cluster->node(0)->lease().host_run().lease_generation, created.value().op_id}
          .result_key();
  const auto result = stored(*cluster, result_key);
  ASSERT_TRUE(result.has_value());
  const auto decoded = decode_final_result(result->value);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->outcome, ReplyOutcome::kCreated);
  EXPECT_EQ(decoded->ref->object_generation, created.value().ref.object_generation);
  EXPECT_FALSE(stored(*cluster, creation_request_key(created.value().op_id.hex())).has_value());
  EXPECT_EQ(stored(*cluster, keys::capacity_actors("game", cluster->rid_hex(1)))->value, "1");
}

TEST_F(CreationTest, RejectedDeletesReturnsSpaceAndRecordsTheResultInOneRequest) {
  make();
  factory.rule = [](const FactoryContext& c) { return c.id == "no" ? Decide::kReject : Decide::kThrow; };
  for (const char* id : {"no", "boom"}) {
    auto done = call_on(0, [id](CreationNode& n) { return n.manager().create_actor(id, "Player", n.deadline_in(seconds(5))); });
    ASSERT_MANAGER_OK(done);
    const auto writes = writes_of(*cluster, actor_key(id));
    ASSERT_EQ(writes.size(), 2u);
    const Summary abort = summarize(writes[1]->request);
    EXPECT_EQ(abort.deletes.front(), actor_key(id));
    EXPECT_TRUE(has(abort.puts, "creation-result"));
    EXPECT_TRUE(has(abort.deletes, "creation-request"));
    EXPECT_EQ(abort.increments.at(keys::capacity_actors("game", cluster->rid_hex(1))), -1);
    EXPECT_FALSE(stored(*cluster, actor_key(id)).has_value());
    const store::Key result_key =
        OperationKey{cluster->rid_hex(0), cluster->node(0)->lease().host_run().lease_generation, done.value().op_id}
            .result_key();
    const auto result = decode_final_result(stored(*cluster, result_key)->value);
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->outcome, std::string(id) == "no" ? ReplyOutcome::kRejected : ReplyOutcome::kFailed);
  }
  EXPECT_EQ(stored(*cluster, keys::capacity_actors("game", cluster->rid_hex(1)))->value, "0");
}

TEST_F(CreationTest, UserSpotSecuresSpotAndTypeSlotsInTheReserveRequest) {
  make();
  auto created = call_on(0, [](CreationNode& n) { return n.manager().get_or_create_user_spot("room:1", "Room", n.deadline_in(seconds(5))); });
  ASSERT_MANAGER_OK(created);
  const auto writes = writes_of(*cluster, spot_key("room:1"));
  ASSERT_EQ(writes.size(), 2u);
  const Summary reserve = summarize(writes[0]->request);
  EXPECT_EQ(reserve.increments.at(keys::capacity_spots("game", cluster->rid_hex(1))), 1);
  EXPECT_EQ(reserve.increments.at(keys::capacity_spot_type("game", cluster->rid_hex(1), records::ObjectKind::kUserSpot, "Room")), 1);
  EXPECT_EQ(reserve.increments.count(keys::capacity_actors("game", cluster->rid_hex(1))), 0u);
}

}  // namespace
}  // namespace spotcheck::location::creation::testing
