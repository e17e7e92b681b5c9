// Property `store-truth`: the store's account (store.applied) against model/'s transitions, and
// the protocol's "applied" against the store's account.
#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <string>
#include <vector>

#include "impl/location/creation/stored_records.h"
#include "impl/records/authority_record.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/records/owner_lease_record.h"
#include "impl/location/events/authority_events.h"
#include "impl/location/events/creation_events.h"
#include "impl/location/events/instance_events.h"
#include "impl/location/instance/instance_request.h"
#include "sim/events/sim_events.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::seconds;

PropertyOptions with_ground_truth() {
  PropertyOptions options = test_options();
  options.store_ground_truth = true;
  return options;
}

// The stored bytes of `row` (tests/properties/event_script.h Row), with the row payload `payload`.
std::string stored_bytes(const Row& row, const std::string& payload = "") {
  records::AuthorityRecord record;
  record.object_generation = static_cast<std::uint64_t>(row.object_gen);
  record.authority_owner_generation = static_cast<std::uint64_t>(row.owner_gen);
  record.owner_id = row.owner;
  record.owner_lease_generation = static_cast<std::uint64_t>(row.lease_gen);
  record.allocation.state = row.state == "active" ? records::AllocationState::kActive : records::AllocationState::kReserved;
  record.allocation.object_kind = records::ObjectKind::kActor;
  record.allocation.stable_type = row.stable_type;
  record.allocation.descriptor = {row.mesh, row.rid};
  record.allocation.descriptor_lifecycle_generation = 1;
  record.allocation.capacity.actors = 1;
  record.payload = payload;
  return records::encode(record);
}

// The stored bytes of an owner lease row.
std::string lease_bytes(const std::string& owner, std::int64_t lease_gen, std::int64_t expires_ms, std::int64_t updated_ms) {
  records::OwnerLeaseRecord record;
  record.owner_id = owner;
  record.lease_generation = static_cast<std::uint64_t>(lease_gen);
  record.expires_at_epoch_ms = expires_ms;
  record.updated_at_epoch_ms = updated_ms;
  const records::RecordResult<std::string> bytes = records::encode_checked(record);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? bytes.value() : "";
}

// One mutation of a store.applied write.
struct Part {
  std::string key;
  std::string mutation;
  std::int64_t old_version = 0;
  std::int64_t new_version = 0;
  std::string value{};
  std::int64_t delta = 0;
  std::int64_t counter = 0;
};

class StoreTruth : public ::testing::Test {
 protected:
  History h{with_ground_truth(), {"store-truth"}};
  Script& s = h.script;

  // Every row a test stores names a host run whose owner lease row the store holds (§5, §6.1):
  // owner-a at LeaseGeneration 1 and owner-b at 2, live to StoreNow 1,000 s.
  void SetUp() override {
    EXPECT_LEGAL(register_lease(0, "owner-a", store_ms(seconds(1'000))));
    EXPECT_LEGAL(register_lease(0, "owner-b", store_ms(seconds(1'000))));
  }

  // Registers `owner`: the lease-generation counter and the lease row in one write.
  std::optional<std::string> register_lease(TimeUs t_us, const std::string& owner, std::int64_t expires_ms) {
    const std::int64_t lease_gen = ++_lease_counter;
    const Part counter = increment("counter/lease-generation", lease_gen);
    const Versions v = next_version("owner-lease/" + owner);
    return applied(t_us, {counter, Part{"owner-lease/" + owner, "put", v.old_version, v.new_version,
                               lease_bytes(owner, lease_gen, expires_ms, store_ms(t_us))}});
  }
  std::optional<std::string> renew(TimeUs t_us, const std::string& owner, std::int64_t lease_gen, std::int64_t expires_ms) {
    const Versions v = next_version("owner-lease/" + owner);
    return applied(t_us, {Part{"owner-lease/" + owner, "put", v.old_version, v.new_version,
                               lease_bytes(owner, lease_gen, expires_ms, store_ms(t_us))}});
  }
  std::optional<std::string> release(TimeUs t_us, const std::string& owner) {
    const std::int64_t old_version = std::exchange(_versions["owner-lease/" + owner], 0);
    return applied(t_us, {Part{"owner-lease/" + owner, "delete", old_version, 0}});
  }

  std::string key(const Row& row) const { return "authority/" + row.kind + "/" + row.id; }

  // Feeds one applied write, a store.applied per part; returns the first verdict.
  std::optional<std::string> applied(TimeUs t_us, const std::vector<Part>& parts) {
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const Part& p = parts[i];
      std::optional<std::string> verdict = s.feed(
          t_us, -1, "store.applied",
          {F::n("node", 0), F::s("key", p.key), F::s("mutation", p.mutation), F::n("part", static_cast<std::int64_t>(i) + 1),
           F::n("mutations", static_cast<std::int64_t>(parts.size())), F::n("old_version", p.old_version),
           F::n("new_version", p.new_version), F::s("value", p.value), F::n("delta", p.delta), F::n("counter", p.counter),
           F::n("store_now_ms", store_ms(t_us))});
      if (verdict.has_value()) {
        return verdict;
      }
    }
    return std::nullopt;
  }

  // An increment of `counter_key` to `value` (its versions kept here).
  Part increment(const std::string& counter_key, std::int64_t value, std::int64_t delta = 1) {
    const Versions v = next_version(counter_key);
    return Part{counter_key, "increment", v.old_version, v.new_version, "", delta, value};
  }

  // A put of `row`; one that creates a Reserved row issues its ObjectGeneration and secures its
  // actor slot in the same write (the counter seeded first when the row skips ahead).
  std::optional<std::string> put(TimeUs t_us, const Row& row, std::int64_t old_version, std::int64_t new_version,
                                 const std::string& payload = "") {
    std::vector<Part> parts{Part{key(row), "put", old_version, new_version, stored_bytes(row, payload)}};
    if (old_version == 0 && row.state == "reserved") {
      const std::string counter = "counter/object-generation";
      if (row.object_gen != _object_gen_counter + 1) {
        EXPECT_LEGAL(seed_counter(t_us, counter, row.object_gen - 1));
      }
      _object_gen_counter = row.object_gen;
      parts.push_back(increment(counter, row.object_gen));
      parts.push_back(actor_slot(row, +1));
    }
    return applied(t_us, parts);
  }
  // A removal of `row` (Abort or Delete), which returns its actor slot in the same write.
  std::optional<std::string> remove(TimeUs t_us, const Row& row, std::int64_t old_version) {
    return applied(t_us, {Part{key(row), "delete", old_version, 0}, actor_slot(row, -1)});
  }
  // The move of the actor-slot counter of `row`'s node by `delta`.
  Part actor_slot(const Row& row, std::int64_t delta) {
    const std::string counter = "capacity/" + row.mesh + "/" + row.rid + "/actors";
    std::int64_t& value = _counters[counter];
    value += delta;
    return increment(counter, value, delta);
  }
  std::optional<std::string> seed_counter(TimeUs t_us, const std::string& counter_key, std::int64_t value) {
    const Versions v = next_version(counter_key);
    return applied(t_us, {Part{counter_key, "put", v.old_version, v.new_version, std::to_string(value)}});
  }

  // The StoreVersions of the next write of a key kept here: the one it finds, the fresh one it leaves.
  struct Versions {
    std::int64_t old_version;
    std::int64_t new_version;
  };
  Versions next_version(const std::string& key) {
    std::int64_t& version = _versions[key];
    const std::int64_t old_version = std::exchange(version, ++_next_version);
    return Versions{old_version, version};
  }

  std::map<std::string, std::int64_t> _versions;
  std::map<std::string, std::int64_t> _counters;
  std::int64_t _next_version = 1000;
  std::int64_t _object_gen_counter = 0;
  std::int64_t _lease_counter = 0;

  static Row reserved(std::int64_t object_gen = 1) {
    Row r;
    r.object_gen = object_gen;
    r.state = "reserved";
    return r;
  }
  static Row active(std::int64_t object_gen = 1) {
    Row r = reserved(object_gen);
    r.state = "active";
    return r;
  }
};

TEST_F(StoreTruth, ALegalLifeWithTruthfulClaimsPasses) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = reserved(), .version = 3}));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 5));
  EXPECT_LEGAL(s.write(seconds(2), 0, Write{.op = "commit", .row = active(), .version = 5}));
  // A preserve, then a NewOwner to another host run with a higher owner generation.
  EXPECT_LEGAL(put(seconds(3), active(), 5, 6));
  Row moved = active();
  moved.owner = "owner-b";
  moved.lease_gen = 2;
  moved.owner_gen = 2;
  EXPECT_LEGAL(put(seconds(4), moved, 6, 8));
  EXPECT_LEGAL(remove(seconds(5), moved, 8));
  EXPECT_LEGAL(s.write(seconds(5), 1, Write{.op = "delete", .row = moved}));
  // Re-created with a higher ObjectGeneration; a resolved claim reports no version mismatch.
  EXPECT_LEGAL(put(seconds(6), reserved(2), 0, 9));
  EXPECT_LEGAL(s.write(seconds(6), 0, Write{.op = "reserve", .row = reserved(2), .resolved = true, .version = 9}));
}

// creation.result 'created': the store made that row Active at that ObjectGeneration under the
// reporting host run (§7: Ready and the final result in one write).
TEST_F(StoreTruth, ACreatedResultNeedsTheRowTheStoreMadeActive) {
  const auto created = [&](TimeUs t_us, std::int64_t object_gen) {
    return s.feed(t_us, 0, "creation.result",
                  owned_fields(location::events::CreationResult{"op-1", 1, "created", "actor", "player:1", object_gen,
                                                                "owner-a", 1}));
  };
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  expect_violation(h, created(seconds(2), 1), "store-truth",
                   {"creation.result: operation op-1 reports authority/actor/player:1 created at ObjectGeneration 1",
                    "the store never made that row Active"});
}

TEST_F(StoreTruth, ACreatedResultAfterTheCommitPasses) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 5));
  EXPECT_LEGAL(s.feed(seconds(2), 0, "creation.result",
                      owned_fields(location::events::CreationResult{"op-1", 1, "created", "actor", "player:1", 1,
                                                                    "owner-a", 1})));
  EXPECT_LEGAL(s.feed(seconds(3), 0, "creation.result",
                      owned_fields(location::events::CreationResult{"op-2", 1, "rejected", "actor", "player:2", 4,
                                                                    "owner-a", 1})));
}

TEST_F(StoreTruth, AnAppliedClaimTheStoreNeverSawIsFlagged) {
  expect_violation(h, s.write(seconds(1), 0, Write{.op = "commit", .row = active()}), "store-truth",
                   {"claims applied", "the store applied no write to authority/actor/player:1"});
}

TEST_F(StoreTruth, AClaimOfARowTheStoreDidNotStoreIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));  // events #4..#6 (SetUp's two leases are #0..#3)
  // The Commit's reply was lost and taken as applied without a re-read: the row is still Reserved.
  expect_violation(h, s.write(seconds(2), 0, Write{.op = "commit", .row = active(), .resolved = true, .version = 0}),
                   "store-truth", {"claims applied (StoreVersion 0)", "never stored that row", "it holds Reserved", "#4"});
}

TEST_F(StoreTruth, AClaimWithAnotherStoreVersionIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  expect_violation(h, s.write(seconds(1), 0, Write{.op = "reserve", .row = reserved(), .version = 4}), "store-truth",
                   {"StoreVersion 4", "never stored that row"});
}

TEST_F(StoreTruth, ADeleteClaimWithoutARemovalIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 4));
  expect_violation(h, s.write(seconds(3), 0, Write{.op = "delete", .row = active()}), "store-truth",
                   {"never removed a row of object_gen 1"});
}

TEST_F(StoreTruth, AnIllegalTransitionIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 4));
  expect_violation(h, put(seconds(3), reserved(), 4, 5), "store-truth",
                   {"went Active", "-> Reserved", "no operation of §6.1"});
}

TEST_F(StoreTruth, AReCreationMustRaiseTheObjectGeneration) {
  EXPECT_LEGAL(put(seconds(1), reserved(4), 0, 3));
  EXPECT_LEGAL(remove(seconds(2), reserved(4), 3));
  expect_violation(h, put(seconds(3), reserved(4), 0, 5), "store-truth",
                   {"as a Reserve", "not above the ID's earlier ones (4)"});
}

TEST_F(StoreTruth, ANewOwnerMustRaiseTheOwnerGeneration) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(put(seconds(2), active(), 3, 4));
  Row moved = active();
  moved.owner = "owner-b";
  expect_violation(h, put(seconds(3), moved, 4, 5), "store-truth", {"as a NewOwner", "raise AuthorityOwnerGeneration"});
}

TEST_F(StoreTruth, AWriteThatFoundAnotherVersionIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  expect_violation(h, put(seconds(2), active(), 2, 4), "store-truth",
                   {"found StoreVersion 2", "the last write the store applied left 3"});
}

TEST_F(StoreTruth, ARowThatDoesNotDecodeIsFlagged) {
  expect_violation(h, applied(seconds(1), {Part{"authority/actor/x", "put", 0, 1, "{}"}}), "store-truth",
                   {"does not decode"});
}

TEST_F(StoreTruth, AReserveMustIssueItsObjectGenerationInItsOwnWrite) {
  expect_violation(h, applied(seconds(1), {Part{key(reserved()), "put", 0, 3, stored_bytes(reserved())}}), "store-truth",
                   {"as a Reserve", "its write issued no ObjectGeneration from counter/object-generation"});
}

TEST_F(StoreTruth, AReserveWithAnotherObjectGenerationThanItsWriteIssuedIsFlagged) {
  expect_violation(h,
                   applied(seconds(1), {Part{key(reserved(2)), "put", 0, 3, stored_bytes(reserved(2))},
                                        increment("counter/object-generation", 1)}),
                   "store-truth", {"its write issued ObjectGeneration 1"});
}

TEST_F(StoreTruth, AWritesPartsMustArriveInOrder) {
  expect_violation(h,
                   s.feed(seconds(1), -1, "store.applied",
                          {F::n("node", 0), F::s("key", "k"), F::s("mutation", "put"), F::n("part", 2), F::n("mutations", 2),
                           F::n("old_version", 0), F::n("new_version", 1), F::s("value", "v"), F::n("delta", 0),
                           F::n("counter", 0), F::n("store_now_ms", store_ms(seconds(1)))}),
                   "store-truth", {"part 2 of 2, out of its write's order"});
}

// ---- Manager calls' answers against the store (store_truth_claims.cpp) ---------------------

class StoreTruthCalls : public StoreTruth {
 protected:
  std::optional<std::string> close_requested(TimeUs t_us, std::int32_t node, std::int64_t object_gen) {
    return s.feed(t_us, node, "close.requested",
                  owned_fields(location::events::CloseRequested{"op-c", "actor", "player:1", object_gen}));
  }
  std::optional<std::string> close_result(TimeUs t_us, std::int32_t node, const std::string& outcome,
                                          std::int64_t object_gen) {
    return s.feed(t_us, node, "close.result",
                  owned_fields(location::events::CloseResult{"op-c", outcome, "actor", "player:1", object_gen}));
  }
  std::optional<std::string> close_finished(TimeUs t_us, std::int32_t node, const std::string& outcome) {
    return s.feed(t_us, node, "close.finished", owned_fields(location::events::CloseFinished{"op-c", "player:1", outcome}));
  }
  std::optional<std::string> creation_requested(TimeUs t_us, std::int32_t node) {
    return s.feed(t_us, node, "creation.requested",
                  owned_fields(location::events::CreationRequested{"op-g", 1, "get_or_create", "actor", "actor", "player:1",
                                                                   "Player", 0, "sim"}));
  }
  std::optional<std::string> creation_finished(TimeUs t_us, std::int32_t node, const std::string& outcome,
                                               std::int64_t object_gen) {
    return s.feed(t_us, node, "creation.finished",
                  owned_fields(location::events::CreationFinished{"op-g", 1, "get_or_create", "actor", "player:1",
                                                                  outcome, object_gen, 0}));
  }
  // Row 1 Active (ObjectGeneration 1, StoreVersion 4).
  void make_active() {
    EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
    EXPECT_LEGAL(put(seconds(1), active(), 3, 4));
  }
};

// A creation answered from the store read its own request's stored final result: the request is
// (source host run, OperationId), and the same OperationId of another host run is another request (§7).
TEST_F(StoreTruthCalls, AnAnswerFromTheStoreNeedsThisRequestsStoredResult) {
  const auto stored_result = [&](TimeUs t_us, std::uint64_t source_gen, std::int64_t version) {
    location::creation::FinalResultRecord record;
    record.operation = {"00000000000000a1", source_gen, location::messaging::OperationId{0, 0x9}};
    record.outcome = location::messaging::ReplyOutcome::kRejected;
    record.stable_type = "Player";
    record.retain_until_ms = 1'000'000;
    record.request_sha256 = std::string(64, 'a');
    return applied(t_us, {Part{"creation-result/" + std::to_string(source_gen), "put", version - 1, version,
                               location::creation::encode(record)}});
  };
  const auto answered = [&](TimeUs t_us, std::int64_t source_gen, const std::string& outcome) {
    EXPECT_LEGAL(s.feed(t_us, 0, "creation.requested",
                        owned_fields(location::events::CreationRequested{"00000000000000000000000000000009", source_gen,
                                                                         "create", "actor", "actor", "player:1",
                                                                         "Player", 0, "sim"})));
    return s.feed(t_us, 0, "creation.finished",
                  owned_fields(location::events::CreationFinished{"00000000000000000000000000000009", source_gen,
                                                                  "create", "actor", "player:1", outcome, 0, 1}));
  };
  EXPECT_LEGAL(stored_result(seconds(1), 3, 1));
  EXPECT_LEGAL(answered(seconds(2), 3, "rejected"));
  expect_violation(h, answered(seconds(3), 3, "failed"), "store-truth",
                   {"answered 'failed' (ObjectGeneration 0) from the store", "its stored final result", "is 'rejected'"});
}

// §7: Create answers AlreadyExists only for an ID someone holds (Ready or Creating).
TEST_F(StoreTruthCalls, AlreadyExistsNeedsARowOfTheIdDuringTheCall) {
  EXPECT_LEGAL(creation_requested(seconds(1), 2));
  expect_violation(h, creation_finished(seconds(2), 2, "already_exists", 0), "store-truth",
                   {"answered 'already_exists' for authority/actor/player:1",
                    "the store never held a row of that ID"});
}

TEST_F(StoreTruthCalls, AlreadyExistsWhileTheIdIsCreatingPasses) {
  EXPECT_LEGAL(creation_requested(seconds(1), 2));
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(creation_finished(seconds(2), 2, "already_exists", 0));
}

TEST_F(StoreTruthCalls, AnOperationIdReusedByALaterHostRunIsNotAnsweredWithTheEarlierResult) {
  location::creation::FinalResultRecord record;
  record.operation = {"00000000000000a1", 3, location::messaging::OperationId{0, 0x9}};
  record.outcome = location::messaging::ReplyOutcome::kRejected;
  record.stable_type = "Player";
  record.retain_until_ms = 1'000'000;
  record.request_sha256 = std::string(64, 'a');
  EXPECT_LEGAL(applied(seconds(1), {Part{"creation-result/x", "put", 0, 1, location::creation::encode(record)}}));
  EXPECT_LEGAL(s.feed(seconds(2), 0, "creation.requested",
                      owned_fields(location::events::CreationRequested{"00000000000000000000000000000009", 8, "create",
                                                                       "actor", "actor", "player:1", "Player", 0, "sim"})));
  expect_violation(
      h,
      s.feed(seconds(2), 0, "creation.finished",
             owned_fields(location::events::CreationFinished{"00000000000000000000000000000009", 8, "create", "actor",
                                                             "player:1", "rejected", 0, 1})),
      "store-truth",
      {"operation 00000000000000000000000000000009 of source host run 8 answered 'rejected' from the store",
       "never stored a final result of this request",
       "another request (00000000000000000000000000000009 of source host run 3"});
}

// The store's own records name the request a Creating row was reserved for: the creation request
// stored with the Reserve (its reservationId and operation). A source drives only its own (§7).
class StoreTruthRequests : public StoreTruthCalls {
 protected:
  static constexpr const char* kOp = "00000000000000000000000000000009";
  static location::creation::OperationKey operation(std::uint64_t source_gen) {
    return {"00000000000000a1", source_gen, location::messaging::OperationId{0, 0x9}};
  }
  // One Reserve of player:1 at ObjectGeneration 1 with its creation request, for the request of
  // host run `source_gen`, under `reservation_id`.
  std::optional<std::string> reserve_for(TimeUs t_us, std::uint64_t source_gen, const std::string& reservation_id) {
    const Row row = reserved();
    records::AuthorityRecord record = records::decode_authority_record(stored_bytes(row)).value();
    record.pending_creation = records::PendingCreation{reservation_id, "creation:" + reservation_id,
                                                       std::string(64, 'b'), 100};
    location::creation::CreationRequestRecord request;
    request.operation = operation(source_gen);
    request.source = {"owner-a", source_gen};
    request.mode = location::creation::CreateMode::kCreate;
    request.id = "player:1";
    request.stable_type = "Player";
    request.deadline_store_ms = 5000;
    request.reservation_id = reservation_id;
    _object_gen_counter = 1;
    return applied(t_us, {Part{key(row), "put", 0, 3, records::encode(record)},
                          increment("counter/object-generation", 1), actor_slot(row, +1),
                          Part{"creation-request/" + reservation_id, "put", 0, 4, location::creation::encode(request)}});
  }
  std::optional<std::string> command_sent(TimeUs t_us, std::int64_t source_gen) {
    return s.feed(t_us, 0, "creation.command_sent",
                  owned_fields(location::events::CreationCommandSent{kOp, source_gen, 49, "00000000000000a2", 1, 0,
                                                                     "player:1", 1}));
  }
  std::optional<std::string> result_at(TimeUs t_us, const std::string& result_key, std::uint64_t source_gen,
                                       std::int64_t old_version, std::int64_t new_version) {
    location::creation::FinalResultRecord record;
    record.operation = operation(source_gen);
    record.outcome = location::messaging::ReplyOutcome::kRejected;
    record.stable_type = "Player";
    record.retain_until_ms = 1'000'000;
    record.request_sha256 = std::string(64, 'a');
    return applied(t_us, {Part{result_key, "put", old_version, new_version, location::creation::encode(record)}});
  }
};

TEST_F(StoreTruthRequests, ACommandForItsOwnReservationPasses) {
  EXPECT_LEGAL(reserve_for(seconds(1), 3, "r-3"));
  EXPECT_LEGAL(command_sent(seconds(2), 3));
}

// The same OperationId from a later host run (another request) taking the earlier run's Creating
// row for its own — what a reservationId drawn from the OperationId alone does (mutant B17).
TEST_F(StoreTruthRequests, ACommandForAnotherRequestsCreatingRowIsFlagged) {
  EXPECT_LEGAL(reserve_for(seconds(1), 3, "r-3"));
  expect_violation(h, command_sent(seconds(2), 8), "store-truth",
                   {"operation 00000000000000000000000000000009 of source host run 8 sent command 49 for player:1",
                    "for another request (00000000000000000000000000000009 of source host run 3, reservationId r-3)"});
}

// Two requests whose final results land on one key: the earlier result is lost (mutant B18, a key
// without the host run generation). After a delete (retention ended) the key is free again.
TEST_F(StoreTruthRequests, AFinalResultStoredOverAnotherRequestsResultIsFlagged) {
  EXPECT_LEGAL(result_at(seconds(1), "creation-result/k", 3, 0, 1));
  expect_violation(h, result_at(seconds(2), "creation-result/k", 8, 1, 2), "store-truth",
                   {"stored the final result of operation 00000000000000000000000000000009 of source host run 8",
                    "over the result of another request (00000000000000000000000000000009 of source host run 3"});
}

TEST_F(StoreTruthRequests, AFinalResultKeyFreedByADeleteMayHoldAnotherRequest) {
  EXPECT_LEGAL(result_at(seconds(1), "creation-result/k", 3, 0, 1));
  EXPECT_LEGAL(applied(seconds(2), {Part{"creation-result/k", "delete", 1, 0}}));
  EXPECT_LEGAL(result_at(seconds(3), "creation-result/k", 8, 0, 2));
}

TEST_F(StoreTruthCalls, ACloseAnsweredClosedAfterItsOwnDeletePasses) {
  make_active();
  EXPECT_LEGAL(close_requested(seconds(2), 2, 1));
  EXPECT_LEGAL(remove(seconds(3), active(), 4));
  EXPECT_LEGAL(s.write(seconds(3), 2, Write{.op = "delete", .row = active()}));
  EXPECT_LEGAL(close_finished(seconds(3), 2, "closed"));
}

// B11: a Delete whose outcome is unknown (no applied claim) is never answered 'closed' (§10).
TEST_F(StoreTruthCalls, AnOwnerAnsweringClosedWithoutAnAppliedDeleteIsFlagged) {
  make_active();
  EXPECT_LEGAL(close_requested(seconds(2), 2, 1));
  EXPECT_LEGAL(s.write(seconds(3), 1, Write{.op = "delete", .row = active(), .outcome = "indeterminate"}));
  expect_violation(h, close_result(seconds(3), 1, "closed", 1), "store-truth",
                   {"close.result: operation op-c answered 'closed'", "the owner applied no Delete"});
}

// B13: a stale ref's Close removed the re-created generation instead.
TEST_F(StoreTruthCalls, AClosedAnswerWhoseDeleteRemovedAnotherGenerationIsFlagged) {
  make_active();
  EXPECT_LEGAL(remove(seconds(2), active(), 4));
  EXPECT_LEGAL(put(seconds(2), reserved(2), 0, 5));
  EXPECT_LEGAL(put(seconds(2), active(2), 5, 6));
  EXPECT_LEGAL(close_requested(seconds(3), 2, 1));  // the ref names ObjectGeneration 1
  EXPECT_LEGAL(remove(seconds(4), active(2), 6));
  EXPECT_LEGAL(s.write(seconds(4), 2, Write{.op = "delete", .row = active(2)}));
  expect_violation(h, close_finished(seconds(4), 2, "closed"), "store-truth",
                   {"removed ObjectGeneration 2, another generation"});
}

TEST_F(StoreTruthCalls, AStaleGenerationAnswerNeedsAnotherGenerationInTheStore) {
  make_active();
  EXPECT_LEGAL(close_requested(seconds(2), 2, 1));
  expect_violation(h, close_finished(seconds(3), 2, "stale_generation"), "store-truth",
                   {"the store never held another generation than 1 during the call"});
}

TEST_F(StoreTruthCalls, ANotFoundAnswerNeedsTheRowAbsentDuringTheCall) {
  make_active();
  EXPECT_LEGAL(close_requested(seconds(2), 2, 1));
  expect_violation(h, close_finished(seconds(3), 2, "not_found"), "store-truth", {"the store never held no row"});
}

TEST_F(StoreTruthCalls, ANotFoundAnswerAfterARemovalDuringTheCallPasses) {
  make_active();
  EXPECT_LEGAL(close_requested(seconds(2), 2, 1));
  EXPECT_LEGAL(remove(seconds(3), active(), 4));
  EXPECT_LEGAL(close_finished(seconds(4), 2, "not_found"));
}

// B01: GetOrCreate answered a Creating row's generation as an existing ref (§7: it waits).
TEST_F(StoreTruthCalls, ARefToAGenerationTheStoreNeverHeldActiveIsFlagged) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(creation_requested(seconds(2), 2));
  expect_violation(h, creation_finished(seconds(3), 2, "existing", 1), "store-truth",
                   {"answered 'existing' with a ref to authority/actor/player:1 at ObjectGeneration 1",
                    "never held that generation Active"});
}

TEST_F(StoreTruthCalls, ARefToAGenerationThatBecameActiveDuringTheCallPasses) {
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));
  EXPECT_LEGAL(creation_requested(seconds(2), 2));
  EXPECT_LEGAL(put(seconds(3), active(), 3, 4));
  EXPECT_LEGAL(creation_finished(seconds(4), 2, "existing", 1));
}

// B09: an Instance Spot request routed to an owner whose row was still Creating.
TEST_F(StoreTruthCalls, AnInstanceRouteToACreatingRowIsFlagged) {
  Row spot = reserved();
  spot.kind = "spot";
  spot.id = "chat-0";
  EXPECT_LEGAL(put(seconds(1), spot, 0, 3));
  EXPECT_LEGAL(s.feed(seconds(2), 2, "instance.request_received",
                      owned_fields(location::events::InstanceRequestReceived{"chat-0", "op-i", "Chat", "00b2", "00c3"})));
  expect_violation(h,
                   s.feed(seconds(3), 2, "instance.outcome",
                          owned_fields(location::events::InstanceOutcome{"chat-0", "op-i", "00b2", "route", 1, "00a1",
                                                                         "Ready on another node"})),
                   "store-truth", {"answered 'route' for authority/spot/chat-0 at ObjectGeneration 1"});
}

// A07: the write moved a capacity counter other than the one model/ names for the allocation.
TEST_F(StoreTruthCalls, AReserveThatMovesAnotherCounterThanItsAllocationsIsFlagged) {
  const Row row = reserved();
  const Part wrong = increment("capacity/sim/00a1/spot-type/Player", 1);
  EXPECT_LEGAL(seed_counter(seconds(1), "counter/object-generation", 0));
  const Part issued = increment("counter/object-generation", 1);
  expect_violation(h, applied(seconds(1), {Part{key(row), "put", 0, 3, stored_bytes(row)}, issued, wrong}),
                   "store-truth",
                   {"moved the capacity counters [capacity/sim/00a1/spot-type/Player +1]",
                    "imply [capacity/sim/00a1/actors +1]"});
}

TEST_F(StoreTruthCalls, ACapacityMoveWithoutAnAuthorityChangeIsFlagged) {
  expect_violation(h, applied(seconds(1), {increment("capacity/sim/00a1/actors", 1)}), "store-truth",
                   {"moved the capacity counters [capacity/sim/00a1/actors +1], but its authority changes imply [none]"});
}

// A09: a creation's Reserve refused on a counter that was full all along: placement chose a full node.
TEST_F(StoreTruthCalls, ACapacityRefusalOnACounterUnmovedSinceTheCallBeganIsFlagged) {
  make_active();  // the node's one actor slot is taken
  const auto refused = [&](TimeUs t_us) {
    return s.feed(t_us, 2, "capacity.refused",
                  owned_fields(location::events::CapacityRefused{"sim", "00a1", "actors", "", "", 1, store_ms(t_us)}));
  };
  EXPECT_LEGAL(creation_requested(seconds(2), 2));
  expect_violation(h, refused(seconds(3)), "store-truth",
                   {"no write moved it since the call began", "placement chose a node without room (§4)"});
}

TEST_F(StoreTruthCalls, ACapacityRefusalAfterARacingReserveTookTheSlotPasses) {
  EXPECT_LEGAL(creation_requested(seconds(1), 2));
  make_active();  // another call took the slot after this one began
  EXPECT_LEGAL(s.feed(seconds(3), 2, "capacity.refused",
                      owned_fields(location::events::CapacityRefused{"sim", "00a1", "actors", "", "", 1, 0})));
}

// ---- Counters -------------------------------------------------------------------------------

// ---- the Relocation Store against the rows that point into it (store_truth_payloads.cpp) ------

class StoreTruthPayloads : public StoreTruth {
 protected:
  const std::string ref = "instance:chat-1:00000000000000000000000000000009";
  const std::string sha = std::string(64, 'a');
  std::string pointer() const { return location::instance::recovery_pointer(ref, sha, 10); }
  std::optional<std::string> payload(TimeUs t_us, const std::string& op, const std::string& sha256) {
    return s.feed(t_us, -1, "store.payload_applied",
                  owned_fields(sim::events::StorePayloadApplied{0, op, ref, sha256, op == "put" ? 10 : 0,
                                                                "relocation-store", store_ms(t_us)}));
  }
};

// §7.1 / §10 in order: payload stored, row Reserved and Ready pointing at it, end of use recorded
// (payload ""), payload deleted.
TEST_F(StoreTruthPayloads, StoredBeforeThePointerAndDeletedAfterTheEndOfUsePasses) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(put(seconds(2), reserved(), 0, 3, pointer()));
  EXPECT_LEGAL(put(seconds(3), active(), 3, 4, pointer()));
  EXPECT_LEGAL(put(seconds(4), active(), 4, 5));
  EXPECT_LEGAL(payload(seconds(5), "remove", ""));
}

TEST_F(StoreTruthPayloads, APointerToAPayloadTheStoreDoesNotHoldIsFlagged) {
  expect_violation(h, put(seconds(2), reserved(), 0, 3, pointer()), "store-truth",
                   {"point at the payload " + ref, "which the Relocation Store does not hold"});
}

TEST_F(StoreTruthPayloads, APointerWithOtherBytesThanTheStoredOnesIsFlagged) {
  EXPECT_LEGAL(payload(seconds(1), "put", std::string(64, 'b')));
  expect_violation(h, put(seconds(2), reserved(), 0, 3, pointer()), "store-truth",
                   {"with SHA-256 " + sha, "the Relocation Store holds other bytes there"});
}

// Deleting the first-message payload while the Ready row still points at it (before the end of
// use was recorded): a restart would find the row's recovery data gone (§7.1).
TEST_F(StoreTruthPayloads, ADeleteBeforeTheEndOfUseIsFlagged) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(put(seconds(2), reserved(), 0, 3, pointer()));
  EXPECT_LEGAL(put(seconds(3), active(), 3, 4, pointer()));
  expect_violation(h, payload(seconds(4), "remove", ""), "store-truth",
                   {"removed the payload " + ref + " while authority/actor/player:1 still points at it", "Active"});
}

TEST_F(StoreTruthPayloads, ADeleteAfterTheRowWasRemovedPasses) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(put(seconds(2), reserved(), 0, 3, pointer()));
  EXPECT_LEGAL(remove(seconds(3), reserved(), 3));
  EXPECT_LEGAL(payload(seconds(4), "remove", ""));
}

// The target's payload events against the store's account.
TEST_F(StoreTruthPayloads, APayloadReportedStoredNeedsTheStoresPut) {
  const auto stored = [&](TimeUs t_us, const std::string& sha256) {
    return s.feed(t_us, 2, "instance.payload_stored",
                  owned_fields(location::events::InstancePayloadStored{"chat-1", "op", "00000000000000a2", ref, sha256,
                                                                      10, 0}));
  };
  EXPECT_LEGAL(payload(seconds(2), "put", sha));
  EXPECT_LEGAL(stored(seconds(3), sha));
  expect_violation(h, stored(seconds(4), std::string(64, 'c')), "store-truth", {"stored other bytes there"});
}

TEST_F(StoreTruthPayloads, APayloadReportedStoredThatTheStoreNeverStoredIsFlagged) {
  expect_violation(h,
                   s.feed(seconds(1), 2, "instance.payload_stored",
                          owned_fields(location::events::InstancePayloadStored{"chat-1", "op", "00000000000000a2", ref,
                                                                              sha, 10, 0})),
                   "store-truth",
                   {"reported the payload " + ref + " stored and verified", "the Relocation Store never stored it"});
}

TEST_F(StoreTruthPayloads, APayloadReportedRemovedNeedsTheStoresRemove) {
  const auto released = [&](TimeUs t_us, std::int64_t was_present) {
    return s.feed(t_us, 2, "instance.payload_released",
                  owned_fields(location::events::InstancePayloadReleased{"chat-1", "op", "00000000000000a2", ref,
                                                                        "end_of_use", was_present}));
  };
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(released(seconds(2), 0));  // nothing was there to remove: no claim on the store
  expect_violation(h, released(seconds(3), 1), "store-truth",
                   {"reported the payload " + ref + " removed (end_of_use)", "never removed it"});
  EXPECT_LEGAL(payload(seconds(4), "remove", ""));
  EXPECT_LEGAL(released(seconds(5), 1));
}

// §10 DataLost against the store's account (store.payload_damaged is the store's own word).
class StoreTruthDataLost : public StoreTruthPayloads {
 protected:
  std::optional<std::string> damaged(TimeUs t_us, const std::string& how, const std::string& sha256 = "") {
    return s.feed(t_us, -1, "store.payload_damaged",
                  owned_fields(sim::events::StorePayloadDamaged{2, ref, how, sha256, 0, "relocation-store"}));
  }
  std::optional<std::string> data_lost(TimeUs t_us, const std::string& reason,
                                       const std::string& action = "not_recorded") {
    return s.feed(t_us, 2, "instance.data_lost",
                  owned_fields(location::events::InstanceDataLost{"chat-1", 1, "00000000000000a2", ref, sha, reason,
                                                                  action}));
  }
  std::optional<std::string> restored(TimeUs t_us) {
    return s.feed(t_us, 2, "instance.recovered",
                  owned_fields(location::events::InstanceRecovered{"chat-1", 1, "00000000000000a2", "earlier", 1,
                                                                   "first_message_restored"}));
  }
  static Row spot(Row row) {
    row.kind = "spot";
    row.id = "chat-1";
    return row;
  }
};

TEST_F(StoreTruthDataLost, DataLostForAPayloadTheStoreHoldsAsPointedAtIsFlagged) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(damaged(seconds(2), "invisible"));  // a spell: the store still holds the bytes
  expect_violation(h, data_lost(seconds(3), "missing"), "store-truth",
                   {"declared the payload " + ref, "DataLost (missing)", "holds it with the bytes the row points at"});
}

TEST_F(StoreTruthDataLost, DataLostAfterTheStoreLostOrChangedThePayloadPasses) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(damaged(seconds(2), "lost"));
  EXPECT_LEGAL(data_lost(seconds(3), "missing"));
  EXPECT_LEGAL(payload(seconds(4), "put", sha));
  EXPECT_LEGAL(damaged(seconds(5), "corrupted", std::string(64, 'd')));
  EXPECT_LEGAL(data_lost(seconds(6), "checksum"));
}

// "The runtime records the error in the current location record": a claim of `recorded` needs
// the store to hold the row, Active at that generation, with the DataLost payload.
TEST_F(StoreTruthDataLost, DataLostReportedRecordedNeedsTheRowToHoldIt) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(put(seconds(2), spot(reserved()), 0, 3, pointer()));
  EXPECT_LEGAL(put(seconds(3), spot(active()), 3, 4, pointer()));
  EXPECT_LEGAL(damaged(seconds(4), "lost"));
  expect_violation(h, data_lost(seconds(5), "missing", "recorded"), "store-truth",
                   {"reported DataLost of authority/spot/chat-1", "recorded in its row", "without it"});
}

TEST_F(StoreTruthDataLost, DataLostRecordedInTheRowPasses) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(put(seconds(2), spot(reserved()), 0, 3, pointer()));
  EXPECT_LEGAL(put(seconds(3), spot(active()), 3, 4, pointer()));
  EXPECT_LEGAL(damaged(seconds(4), "lost"));
  EXPECT_LEGAL(put(seconds(5), spot(active()), 4, 5, location::instance::data_lost_marker(ref, "missing")));
  EXPECT_LEGAL(data_lost(seconds(6), "missing", "recorded"));
}

TEST_F(StoreTruthDataLost, ARestoreFromThePointedAtBytesPassesAndFromChangedBytesIsFlagged) {
  EXPECT_LEGAL(payload(seconds(1), "put", sha));
  EXPECT_LEGAL(put(seconds(2), spot(reserved()), 0, 3, pointer()));
  EXPECT_LEGAL(put(seconds(3), spot(active()), 3, 4, pointer()));
  EXPECT_LEGAL(restored(seconds(4)));
  EXPECT_LEGAL(damaged(seconds(5), "corrupted", std::string(64, 'd')));
  expect_violation(h, restored(seconds(6)), "store-truth",
                   {"restored authority/spot/chat-1", "from the stored request " + ref,
                    "holds other bytes there (" + std::string(64, 'd')});
}

TEST_F(StoreTruth, ACounterMustLeaveItsValuePlusTheDelta) {
  const std::string actors = "capacity/sim/00a1/actors";
  EXPECT_LEGAL(put(seconds(1), reserved(), 0, 3));  // secures 1
  EXPECT_LEGAL(remove(seconds(2), reserved(), 3));  // returns it
  expect_violation(h, applied(seconds(3), {increment(actors, 2)}), "store-truth", {"the counter went 0 + 1 -> 2"});
}

TEST_F(StoreTruth, ACapacityCounterNeverGoesBelowZero) {
  expect_violation(h, applied(seconds(1), {increment("capacity/sim/0a/spots", -1, -1)}), "store-truth",
                   {"a capacity counter went below 0 (-1)"});
}

TEST_F(StoreTruth, AGenerationCounterOnlyRisesByOne) {
  EXPECT_LEGAL(seed_counter(seconds(1), "counter/lease-generation", 5));
  expect_violation(h, applied(seconds(2), {increment("counter/lease-generation", 7, 2)}), "store-truth",
                   {"a generation counter moved by 2 to 7"});
}

// ---- Owner leases ---------------------------------------------------------------------------

// The stored bytes of node sim/<rid>'s descriptor; `actors_limit` its actor slots (0 = unlimited).
std::string descriptor_bytes(const std::string& owner, std::int64_t lease_gen, std::int64_t revision,
                             const std::string& rid = "0a", std::uint32_t actors_limit = 0) {
  records::MeshNodeDescriptorRecord record;
  record.mesh_name = "sim";
  record.routing_id_hex = rid;
  record.capacity.actors.limit = actors_limit;
  record.lifecycle_generation = 1;
  record.descriptor_revision = static_cast<std::uint64_t>(revision);
  record.endpoint = "sim://node";
  record.owner_id = owner;
  record.lease_generation = static_cast<std::uint64_t>(lease_gen);
  const records::RecordResult<std::string> bytes = records::encode_checked(record);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : records::describe(bytes.error()));
  return bytes.ok() ? bytes.value() : "";
}

class StoreTruthHosts : public StoreTruth {
 protected:
  void SetUp() override {}  // these tests register their own owner leases

  std::optional<std::string> publish(TimeUs t_us, const std::string& owner, std::int64_t lease_gen, std::int64_t revision) {
    const Versions v = next_version("mesh-node/sim/0a");
    return applied(t_us, {Part{"mesh-node/sim/0a", "put", v.old_version, v.new_version,
                               descriptor_bytes(owner, lease_gen, revision)}});
  }

};

TEST_F(StoreTruthHosts, ALegalLeaseLifePasses) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(renew(seconds(6), "owner-a", 1, store_ms(seconds(21))));
  EXPECT_LEGAL(release(seconds(7), "owner-a"));
  EXPECT_LEGAL(register_lease(seconds(8), "owner-b", store_ms(seconds(23))));
}

// A renew the store applied at or after the ExpiresAt it replaced is the store's to accept, but a
// host that adopts it (lease.renewed, e.g. after a re-read) revives an expired lease (§5).
TEST_F(StoreTruthHosts, AdoptingARenewThatAppliedAfterTheLeaseExpiredIsFlagged) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(renew(seconds(6), "owner-a", 1, store_ms(seconds(21))));
  EXPECT_LEGAL(s.renewed(seconds(6), 0, "owner-a", 1, store_ms(seconds(21))));  // applied in time
  EXPECT_LEGAL(renew(seconds(21), "owner-a", 1, store_ms(seconds(36))));        // the store takes it at the old end
  expect_violation(h, s.renewed(seconds(22), 0, "owner-a", 1, store_ms(seconds(36))), "store-truth",
                   {"host run owner-a/1 adopted ExpiresAt " + std::to_string(store_ms(seconds(36))),
                    "at or after the ExpiresAt " + std::to_string(store_ms(seconds(21))), "an expired lease was revived"});
}

TEST_F(StoreTruthHosts, ALeaseRowMustTakeTheGenerationItsWriteIssued) {
  expect_violation(h,
                   applied(seconds(1), {Part{"owner-lease/owner-a", "put", 0, 3,
                                             lease_bytes("owner-a", 1, store_ms(seconds(16)), store_ms(seconds(1)))}}),
                   "store-truth", {"a new owner lease holds LeaseGeneration 1", "issued none from the lease-generation counter"});
}

TEST_F(StoreTruthHosts, ARenewKeepsTheGenerationAndExtendsTheExpiry) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  expect_violation(h, renew(seconds(2), "owner-a", 1, store_ms(seconds(16))), "store-truth",
                   {"a renew moved ExpiresAt", "(a renew extends it)"});
}

TEST_F(StoreTruthHosts, ARenewThatChangesTheLeaseGenerationIsFlagged) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  expect_violation(h, renew(seconds(2), "owner-a", 2, store_ms(seconds(17))), "store-truth",
                   {"a renew changed LeaseGeneration 1 -> 2"});
}

TEST_F(StoreTruthHosts, AnOwnerIdIsNeverRegisteredTwice) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(release(seconds(2), "owner-a"));
  expect_violation(h, register_lease(seconds(3), "owner-a", store_ms(seconds(18))), "store-truth",
                   {"OwnerId owner-a was registered again", "never reused"});
}

TEST_F(StoreTruthHosts, ALeaseRowHoldsItsKeysOwnerId) {
  expect_violation(h,
                   applied(seconds(1), {increment("counter/lease-generation", 1),
                                        Part{"owner-lease/owner-a", "put", 0, 3,
                                             lease_bytes("owner-b", 1, store_ms(seconds(16)), store_ms(seconds(1)))}}),
                   "store-truth", {"holds OwnerId owner-b, not its key's"});
}

TEST_F(StoreTruthHosts, ADescriptorLifePasses) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(publish(seconds(1), "owner-a", 1, 1));
  EXPECT_LEGAL(publish(seconds(2), "owner-a", 1, 2));
  // A new host run takes the row over once the old lease expired at the store.
  EXPECT_LEGAL(register_lease(seconds(10), "owner-b", store_ms(seconds(40))));
  EXPECT_LEGAL(publish(seconds(17), "owner-b", 2, 1));
}

TEST_F(StoreTruthHosts, ADescriptorNeedsItsPublishersLeaseRow) {
  expect_violation(h, publish(seconds(1), "owner-a", 1, 1), "store-truth",
                   {"host run owner-a/1 published without its owner lease row"});
}

TEST_F(StoreTruthHosts, ASameRevisionRenewNeverReStores) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(publish(seconds(1), "owner-a", 1, 3));
  expect_violation(h, publish(seconds(2), "owner-a", 1, 3), "store-truth",
                   {"re-stored Revision 3 after Revision 3", "a RENEW at a stored Revision is a no-op"});
}

TEST_F(StoreTruthHosts, ATakeoverWhileThePublishersLeaseIsValidIsFlagged) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(publish(seconds(1), "owner-a", 1, 1));
  EXPECT_LEGAL(register_lease(seconds(2), "owner-b", store_ms(seconds(17))));
  expect_violation(h, publish(seconds(3), "owner-b", 2, 1), "store-truth",
                   {"host run owner-b/2 took over the descriptor", "owner-a/1's owner lease was valid until"});
}

TEST_F(StoreTruthHosts, ATakeoverAfterTheLeaseWasReleasedPasses) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(publish(seconds(1), "owner-a", 1, 1));
  EXPECT_LEGAL(release(seconds(2), "owner-a"));
  EXPECT_LEGAL(register_lease(seconds(2), "owner-b", store_ms(seconds(17))));
  EXPECT_LEGAL(publish(seconds(3), "owner-b", 2, 1));
}

// ---- Capacity limits from the store's side (§3.3) -----------------------------------------------

// The StoreTruth fixture with node sim/00a1 (the rows' node) publishing its actor limit.
class StoreTruthLimits : public StoreTruth {
 protected:
  std::optional<std::string> publish_limit(TimeUs t_us, std::int64_t revision, std::uint32_t actors_limit) {
    const Versions v = next_version("mesh-node/sim/00a1");
    return applied(t_us, {Part{"mesh-node/sim/00a1", "put", v.old_version, v.new_version,
                               descriptor_bytes("owner-a", 1, revision, "00a1", actors_limit)}});
  }
  // A new ID's Reserved row, each with the next ObjectGeneration (its write issues it).
  Row reserved_id(const std::string& id) {
    Row row = reserved(++_gen);
    row.id = id;
    return row;
  }
  std::int64_t _gen = 0;
};

// A Reserve whose bounded increment let the counter past the limit the stored descriptor states:
// the off-by-one the protocol's own events could hide, judged from store.applied alone.
TEST_F(StoreTruthLimits, ASecuringIncrementPastTheStoredDescriptorsLimitIsFlagged) {
  EXPECT_LEGAL(publish_limit(seconds(1), 1, 2));
  EXPECT_LEGAL(put(seconds(2), reserved_id("player:1"), 0, 3));
  EXPECT_LEGAL(put(seconds(3), reserved_id("player:2"), 0, 4));
  expect_violation(h, put(seconds(4), reserved_id("player:3"), 0, 5), "store-truth",
                   {"securing 1 slot(s) took the counter to 3, past the limit of 2",
                    "(Revision 1 of host run owner-a/1)", "capacity/sim/00a1/actors"});
}

// The bound is the descriptor the store holds when the write applies: a later Revision's higher
// limit admits the next slot; a return is never bounded, even above a limit lowered since; a
// node without a limit (0) or without a descriptor row bounds nothing.
TEST_F(StoreTruthLimits, TheBoundIsTheDescriptorTheStoreHoldsAndOnlySecuringIsBounded) {
  EXPECT_LEGAL(publish_limit(seconds(1), 1, 1));
  EXPECT_LEGAL(put(seconds(2), reserved_id("player:1"), 0, 3));
  EXPECT_LEGAL(publish_limit(seconds(3), 2, 3));
  EXPECT_LEGAL(put(seconds(4), reserved_id("player:2"), 0, 4));
  EXPECT_LEGAL(put(seconds(5), reserved_id("player:3"), 0, 5));
  EXPECT_LEGAL(publish_limit(seconds(6), 3, 1));
  Row third = reserved_id("player:3");
  third.object_gen = 3;
  EXPECT_LEGAL(remove(seconds(7), third, 5));  // 3 -> 2, above the new limit
  EXPECT_LEGAL(publish_limit(seconds(8), 4, 0));                  // unlimited
  EXPECT_LEGAL(put(seconds(9), reserved_id("player:4"), 0, 6));
  const std::int64_t row_version = std::exchange(_versions["mesh-node/sim/00a1"], 0);
  EXPECT_LEGAL(applied(seconds(10), {Part{"mesh-node/sim/00a1", "delete", row_version, 0}}));
  EXPECT_LEGAL(put(seconds(11), reserved_id("player:5"), 0, 7));  // no descriptor row: no bound kept
}

// ---- Fencing from the store's side (store_truth_fencing.cpp) -----------------------------------

TEST_F(StoreTruthHosts, ARowNamingAnOwnerWithoutALeaseRowIsFlagged) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  Row row = reserved();
  row.owner = "owner-z";
  expect_violation(h, put(seconds(2), row, 0, 5), "store-truth",
                   {"stored owner owner-z/1", "no owner lease row of that OwnerId", "§6.1"});
}

TEST_F(StoreTruthHosts, ARowNamingAnotherLeaseGenerationThanTheStoredOneIsFlagged) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  Row row = reserved();
  row.lease_gen = 4;
  expect_violation(h, put(seconds(2), row, 0, 5), "store-truth",
                   {"stored owner owner-a/4", "LeaseGeneration 1 for that OwnerId"});
}

TEST_F(StoreTruthHosts, AnOwnersWriteAfterItsLeaseRowWentIsFlagged) {
  // The host run released its lease (or the store lost it); a late Commit of its reservation then
  // applies without the own-lease condition the writer owes (the planted unfenced-writes' store half).
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(put(seconds(2), reserved(), 0, 5));
  EXPECT_LEGAL(release(seconds(3), "owner-a"));
  expect_violation(h, put(seconds(4), active(), 5, 6), "store-truth",
                   {"stored owner owner-a/1", "no owner lease row of that OwnerId"});
}

TEST_F(StoreTruthHosts, AnOwnersCommitAtOrAfterItsStoredExpiresAtIsFlagged) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(put(seconds(2), reserved(), 0, 5));
  expect_violation(h, put(seconds(16), active(), 5, 6), "store-truth",
                   {"rewritten by its owner owner-a/1", "at or after that owner lease's ExpiresAt", "§5"});
}

TEST_F(StoreTruthHosts, AnOwnersCommitBeforeItsRenewedExpiresAtPasses) {
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(put(seconds(2), reserved(), 0, 5));
  EXPECT_LEGAL(renew(seconds(10), "owner-a", 1, store_ms(seconds(25))));
  EXPECT_LEGAL(put(seconds(16), active(), 5, 6));
}

TEST_F(StoreTruthHosts, ANewOwnerNamingALiveTargetAfterThePreviousOwnersExpiryPasses) {
  // NewOwner is the target's write (or the writer's on the target's behalf), conditioned on the
  // target's lease: the previous owner's ExpiresAt plays no part in it.
  EXPECT_LEGAL(register_lease(seconds(1), "owner-a", store_ms(seconds(16))));
  EXPECT_LEGAL(register_lease(seconds(1), "owner-b", store_ms(seconds(40))));
  EXPECT_LEGAL(put(seconds(2), reserved(), 0, 5));
  EXPECT_LEGAL(put(seconds(3), active(), 5, 6));
  Row moved = active();
  moved.owner = "owner-b";
  moved.lease_gen = 2;
  moved.owner_gen = 2;
  EXPECT_LEGAL(put(seconds(20), moved, 6, 7));
}

TEST(StoreTruthOff, WithoutAStoreAccountNothingIsJudged) {
  History h{test_options(), {"store-truth"}};
  EXPECT_LEGAL(h.script.write(seconds(1), 0, Write{.op = "commit"}));
}

}  // namespace
}  // namespace spotcheck::properties::testing
