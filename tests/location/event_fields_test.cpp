// Event fields the property checkers judge by (docs/events.md): `resolved` on lease.registered /
// lease.renewed / descriptor.published, `prev_object_gen` on authority.new_owner, and a Reserve
// resolved by re-read reporting the row actually stored. The last tests feed the recorded events
// of real operations to the `fencing` and `generations` checkers: the real history passes, and a
// history with one field changed is flagged.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/authority_record.h"
#include "properties/checkers/fencing_checker.h"
#include "properties/checkers/generations_checker.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::RecordedEvent;
using testing::StoreFault;
using testing::TestNode;
using testing::World;
using platform::seconds;

class EventFields : public ::testing::Test {
 protected:
  check::ScopedAssertionHandler _throwing{&check::throw_invariant_violation};
  World world;
  const LocationConfig config{};  // {}: clang refuses a const member without an initializer
  TestNode a{world, config, 1, {.rid = "aa01"}};
  TestNode b{world, config, 2, {.rid = "bb02"}};
};

TEST_F(EventFields, LeaseEventsSayWhetherARereadResolvedThem) {
  a.start();
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseRegistered).back().num("resolved"), 0);
  world.clock.advance(seconds(5));
  ASSERT_TRUE(a.lease.renew().ok());
  EXPECT_EQ(world.events.of_kind(kinds::kLeaseRenewed).back().num("resolved"), 0);
  world.clock.advance(seconds(5));
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  ASSERT_TRUE(a.lease.renew().ok());
  const RecordedEvent renewed = world.events.of_kind(kinds::kLeaseRenewed).back();
  EXPECT_EQ(renewed.num("resolved"), 1);
  EXPECT_EQ(renewed.num("expires_ms"), a.lease.expires_at_ms());
}

TEST_F(EventFields, DescriptorPublishedSaysWhetherARereadResolvedIt) {
  a.start();
  EXPECT_EQ(world.events.of_kind(kinds::kDescriptorPublished).back().num("resolved"), 0);

  records::MeshNodeDescriptorRecord changed = a.publisher.descriptor();
  changed.placement_weight = 50;
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  Result<PublishOutcome> published = a.publisher.update(changed);
  ASSERT_TRUE(published.ok()) << describe(published.error());
  EXPECT_EQ(published.value(), PublishOutcome::kPublished);
  RecordedEvent event = world.events.of_kind(kinds::kDescriptorPublished).back();
  EXPECT_EQ(event.str("outcome"), "published");
  EXPECT_EQ(event.num("resolved"), 1);
  EXPECT_EQ(event.num("revision"), 2);
}

TEST_F(EventFields, AnEarlierAttemptsLostReplyFoundByTheNextAttemptIsPublishedNotStale) {
  a.start();
  records::MeshNodeDescriptorRecord changed = a.publisher.descriptor();
  changed.placement_weight = 50;
  // The write applies, its reply is lost, and the one re-read after it fails: the next attempt
  // reads the row and finds this call's own bytes.
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  world.store.read_faults.push_back({StoreFault::Kind::kSlow, 0, 0});        // the row, first read
  world.store.read_faults.push_back({StoreFault::Kind::kUnavailable, 0, 0});  // the re-read
  const std::size_t writes = world.store.writes;
  Result<PublishOutcome> published = a.publisher.update(changed);
  ASSERT_TRUE(published.ok()) << describe(published.error());
  EXPECT_EQ(published.value(), PublishOutcome::kPublished);
  EXPECT_EQ(world.store.writes, writes + 1);  // never written twice
  const RecordedEvent event = world.events.of_kind(kinds::kDescriptorPublished).back();
  EXPECT_EQ(event.str("outcome"), "published");
  EXPECT_EQ(event.num("resolved"), 1);
  const std::optional<store::Found> row =
      testing::raw_read(world.store, records::mesh_node_preimage("game", "aa01"));
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(event.num("version"), static_cast<std::int64_t>(row->version.value));
}

TEST_F(EventFields, NewOwnerCarriesThePreviousObjectGeneration) {
  a.start();
  b.start();
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("p1"), a.view());
  ASSERT_TRUE(reserved.ok());
  Result<AuthoritySnapshot> active = a.authority.commit(reserved.value());
  ASSERT_TRUE(active.ok());
  ASSERT_TRUE(b.authority.new_owner(active.value(), b.view()).ok());
  const RecordedEvent moved = world.events.of_kind(kinds::kAuthorityNewOwner).back();
  EXPECT_EQ(moved.str("outcome"), "applied");
  EXPECT_EQ(moved.num("prev_object_gen"),
            static_cast<std::int64_t>(active.value().record.object_generation));
  EXPECT_EQ(moved.num("object_gen"), moved.num("prev_object_gen"));
  EXPECT_EQ(moved.num("owner_gen"), moved.num("prev_owner_gen") + 1);
}

// Attempt 1's request is "lost" (the re-read shows the row absent: not applied), yet it reaches
// the store late, just before attempt 2 reads the sequence counter. Attempt 2 plans the NEXT
// ObjectGeneration, its write conflicts, and the re-read finds attempt 1's bytes: the Reserve
// applied with attempt 1's ObjectGeneration, and the event must say so.
TEST_F(EventFields, AReserveResolvedByRereadReportsTheStoredRecord) {
  a.start();
  const NodeView target = a.view();
  const store::Key counter_key = keys::object_generation_counter();
  const std::int64_t counter_before = testing::counter_value(world.store, counter_key);
  std::optional<store::WriteRequest> lost;
  world.store.write_faults.push_back({StoreFault::Kind::kLoseRequest, 0, 0});
  world.store.before_write = [&](const store::WriteRequest& request) {
    if (!lost.has_value()) {
      lost = request;  // attempt 1, about to be lost
    }
  };
  int counter_reads = 0;
  world.store.before_read = [&](const store::Key& key) {
    if (key == counter_key && ++counter_reads == 2 && lost.has_value()) {
      // The lost request arrives now, between attempt 1's re-read and attempt 2's counter read.
      ASSERT_TRUE(std::holds_alternative<store::Applied>(world.memory.write(*lost, platform::kNever)));
    }
  };
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("p1"), target);
  ASSERT_TRUE(reserved.ok()) << describe(reserved.error());
  ASSERT_EQ(counter_reads, 2);
  EXPECT_EQ(testing::counter_value(world.store, counter_key), counter_before + 1);  // one issued
  const std::int64_t stored_gen = counter_before + 1;
  EXPECT_EQ(static_cast<std::int64_t>(reserved.value().record.object_generation), stored_gen);

  const RecordedEvent event = world.events.of_kind(kinds::kAuthorityReserve).back();
  EXPECT_EQ(event.str("outcome"), "applied");
  EXPECT_EQ(event.num("resolved"), 1);
  EXPECT_EQ(event.num("object_gen"), stored_gen);  // not attempt 2's counter_before + 2
  const std::optional<store::Found> row = testing::raw_read(world.store, reserved.value().key.store_key());
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(event.num("version"), static_cast<std::int64_t>(row->version.value));
  EXPECT_EQ(world.events.count(kinds::kCapacityChanged), 1U);  // one allocation, counted once
  EXPECT_EQ(testing::counter_value(world.store, keys::capacity_actors("game", "aa01")), 1);
}

// ---- the checkers read these fields ------------------------------------------------------------

// RecordedEvents as the simulator's TraceEvents (fields view the recorded strings).
class Trace {
 public:
  explicit Trace(const std::vector<RecordedEvent>& recorded) : _recorded(recorded.begin(), recorded.end()) {
    for (const RecordedEvent& event : _recorded) {
      std::vector<platform::Field>& fields = _fields.emplace_back();
      for (const auto& [key, text] : event.text) {
        fields.push_back(platform::Field::str(key, text));
      }
      for (const auto& [key, number] : event.number) {
        fields.push_back(platform::Field::num(key, number));
      }
    }
  }

  // Feeds every event in order; returns the first violation.
  std::optional<std::string> judge(properties::PropertyChecker& checker) const {
    for (std::size_t i = 0; i < _recorded.size(); ++i) {
      sim::TraceEvent event;
      event.index = i;
      event.node = 0;
      event.kind = _recorded[i].kind;
      event.fields = _fields[i];
      if (std::optional<std::string> problem = checker.on_event(event)) {
        return problem;
      }
    }
    return std::nullopt;
  }

 private:
  std::deque<RecordedEvent> _recorded;
  std::deque<std::vector<platform::Field>> _fields;
};

properties::PropertyOptions checker_options() {
  properties::PropertyOptions options;
  options.store_epoch_ms = testing::kEpochBaseMs;
  return options;
}

// A history with every new field: a lost renew reply, a lost publish reply, a move.
std::vector<RecordedEvent> real_history(World& world, TestNode& a, TestNode& b) {
  a.start();
  b.start();
  world.clock.advance(seconds(4));
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  EXPECT_TRUE(a.lease.renew().ok());
  EXPECT_TRUE(b.lease.renew().ok());
  records::MeshNodeDescriptorRecord changed = a.publisher.descriptor();
  changed.placement_weight = 60;
  world.store.write_faults.push_back({StoreFault::Kind::kLoseReplyApplied, 0, 0});
  EXPECT_TRUE(a.publisher.update(changed).ok());
  Result<AuthoritySnapshot> reserved = a.authority.reserve(testing::actor_request("p1"), a.view());
  EXPECT_TRUE(reserved.ok());
  Result<AuthoritySnapshot> active = a.authority.commit(reserved.value());
  EXPECT_TRUE(active.ok());
  EXPECT_TRUE(b.authority.new_owner(active.value(), b.view()).ok());
  return world.events.events;
}

TEST_F(EventFields, FencingAndGenerationsAcceptTheRealHistory) {
  const Trace trace(real_history(world, a, b));
  properties::FencingChecker fencing(checker_options());
  properties::GenerationsChecker generations(checker_options());
  EXPECT_EQ(trace.judge(fencing), std::nullopt);
  EXPECT_EQ(trace.judge(generations), std::nullopt);
}

TEST_F(EventFields, GenerationsFlagsANewOwnerThatChangedTheObjectGeneration) {
  std::vector<RecordedEvent> history = real_history(world, a, b);
  bool tampered = false;
  for (RecordedEvent& event : history) {
    if (event.kind == kinds::kAuthorityNewOwner) {
      event.number["prev_object_gen"] += 1;  // as if the move had issued a new ObjectGeneration
      tampered = true;
    }
  }
  ASSERT_TRUE(tampered);
  properties::GenerationsChecker generations(checker_options());
  const std::optional<std::string> problem = Trace(history).judge(generations);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("NewOwner changed ObjectGeneration"), std::string::npos) << *problem;
}

TEST_F(EventFields, FencingJudgesARenewReportedFromItsOwnReply) {
  std::vector<RecordedEvent> history = real_history(world, a, b);
  // b's renew was resolved=0: move its apply instant past the ExpiresAt it extended.
  bool tampered = false;
  for (RecordedEvent& event : history) {
    if (event.kind == kinds::kLeaseRenewed && event.num("resolved") == 0 &&
        event.str("owner") == b.lease.host_run().owner_id) {
      event.number["store_now_ms"] = event.num("expires_ms");
      tampered = true;
    }
  }
  ASSERT_TRUE(tampered);
  properties::FencingChecker fencing(checker_options());
  const std::optional<std::string> problem = Trace(history).judge(fencing);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("revived"), std::string::npos) << *problem;
}

}  // namespace
}  // namespace spotcheck::location
