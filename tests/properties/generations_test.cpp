// Property `generations`: each illegal history is flagged with the object, the host runs and the
// conflicting facts; see legal_history_test.cpp for the legal ones.
#include <gtest/gtest.h>

#include "impl/records/limits.h"
#include "tests/properties/fixture.h"

namespace spotcheck::properties::testing {
namespace {

using platform::millis;
using platform::seconds;

class Generations : public ::testing::Test {
 protected:
  History h{"generations"};
  Script& s = h.script;

  void SetUp() override {
    EXPECT_LEGAL(s.registered(0, 0, "owner-a", 1, store_ms(seconds(15))));
    EXPECT_LEGAL(s.registered(0, 1, "owner-b", 2, store_ms(seconds(15))));
  }

  static Row row(std::string id, std::int64_t object_gen, std::string state = "reserved") {
    Row r;
    r.id = std::move(id);
    r.object_gen = object_gen;
    r.state = std::move(state);
    return r;
  }
};

TEST_F(Generations, ObjectGenerationIssuedToTwoObjects) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = row("player:1", 4)}));
  expect_violation(h, s.write(seconds(2), 0, Write{.op = "reserve", .row = row("player:2", 4)}), "generations",
                   {"ObjectGeneration 4", "actor 'player:2'", "already issued to actor 'player:1'", "#2"});
}

TEST_F(Generations, ObjectGenerationReissuedToTheSameIdAfterDelete) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = row("player:1", 4)}));
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "abort", .row = row("player:1", 4)}));
  expect_violation(h, s.write(seconds(2), 0, Write{.op = "reserve", .row = row("player:1", 4)}), "generations",
                   {"ObjectGeneration 4", "second Reserve", "never reused"});
}

TEST_F(Generations, SequenceGoingBackwardsInStoreTime) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = row("a", 9)}));
  expect_violation(h, s.write(seconds(2), 1, Write{.op = "reserve", .row = row("b", 8)}), "generations",
                   {"ObjectGeneration 8", "after the higher 9 had been issued", "only grows"});
}

TEST_F(Generations, LowerGenerationReportedLaterButAppliedLater) {
  // 8 is reported first (applied at 3 s); 7 arrives afterwards yet applied at 4 s: backwards.
  EXPECT_LEGAL(s.write(seconds(3), 0, Write{.op = "reserve", .row = row("a", 8)}));
  expect_violation(h, s.write(seconds(4), 1, Write{.op = "reserve", .row = row("b", 7)}), "generations",
                   {"ObjectGeneration 7", "after the higher 8"});
}

TEST_F(Generations, HigherGenerationAppliedEarlierReportedLater) {
  // 9 applied at 5 s is reported at 6 s; 10 applied at 2 s is reported at 7 s (late reply): the
  // lower 9 was issued after 10, which the sequence forbids.
  EXPECT_LEGAL(s.write(seconds(6), 0, Write{.op = "reserve", .row = row("a", 9), .store_now_ms = store_ms(seconds(5))}));
  expect_violation(h, s.write(seconds(7), 1, Write{.op = "reserve", .row = row("b", 10), .store_now_ms = store_ms(seconds(2))}),
                   "generations", {"ObjectGeneration 10", "but the lower 9 was issued later"});
}

TEST_F(Generations, NewOwnerMustRaiseOwnerGenerationByOne) {
  Row x = row("player:1", 3, "active");
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = row("player:1", 3)}));
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "commit", .row = x}));
  Write takeover = new_owner(x, "owner-b", 2, "00b1");
  takeover.row.owner_gen = 3;  // skipped 2
  expect_violation(h, s.write(seconds(20), 1, takeover), "generations",
                   {"actor 'player:1'", "exactly one, from 1 to 2, not to 3"});
}

TEST_F(Generations, NewOwnerThatKeepsTheOwnerHostRun) {
  Row x = row("player:1", 3, "active");
  Write same = new_owner(x, "owner-a", 1, "00a1");
  expect_violation(h, s.write(seconds(20), 0, same), "generations", {"kept the owner host run owner-a/1"});
}

TEST_F(Generations, TwoOwnersForOneOwnerGeneration) {
  Row x = row("player:1", 3, "active");
  EXPECT_LEGAL(s.write(seconds(20), 1, new_owner(x, "owner-b", 2, "00b1")));
  EXPECT_LEGAL(s.registered(seconds(20), 2, "owner-c", 3, store_ms(seconds(35))));
  expect_violation(h, s.write(seconds(21), 2, new_owner(x, "owner-c", 3, "00c1")), "generations",
                   {"AuthorityOwnerGeneration 2", "actor 'player:1'", "host run owner-c/3", "host run owner-b/2"});
}

TEST_F(Generations, LeaseGenerationReused) {
  expect_violation(h, s.registered(seconds(1), 2, "owner-c", 2, store_ms(seconds(16))), "generations",
                   {"LeaseGeneration 2 reused", "owner-c", "owner-b"});
}

TEST_F(Generations, LeaseGenerationZero) {
  expect_violation(h, s.registered(seconds(1), 2, "owner-c", 0, store_ms(seconds(16))), "generations",
                   {"LeaseGeneration 0", "outside the issued range"});
}

TEST_F(Generations, RefusalBeforeRegistrationCarriesNoIssuedGeneration) {
  // A registration in progress holds a tentative LeaseGeneration (here one owner-b holds).
  EXPECT_LEGAL(s.feed(seconds(1), 2, "admission.refused",
                      {F::s("op", "object_message"), F::s("owner", "owner-c"), F::n("lease_gen", 2), F::n("now_us", 1)}));
  EXPECT_LEGAL(s.registered(seconds(2), 2, "owner-c", 3, store_ms(seconds(17))));
}

TEST_F(Generations, HostRunChangingItsLeaseGeneration) {
  expect_violation(h, s.renewed(seconds(1), 0, "owner-a", 5, store_ms(seconds(16))), "generations",
                   {"OwnerId owner-a carries LeaseGeneration 5", "carried 1"});
}

TEST_F(Generations, ReserveAppliedAfterExhaustion) {
  const auto top = static_cast<std::int64_t>(records::kGenerationMax);
  EXPECT_LEGAL(s.feed(seconds(1), 0, "generation.exhausted", {F::s("counter", "object-generation"), F::n("value", top)}));
  expect_violation(h, s.write(seconds(2), 1, Write{.op = "reserve", .row = row("b", 12)}), "generations",
                   {"exhausted", "exhaustion changes nothing"});
}

TEST_F(Generations, ExhaustionReportedBelowTheTop) {
  expect_violation(h, s.feed(seconds(1), 0, "generation.exhausted", {F::s("counter", "lease-generation"), F::n("value", 41)}),
                   "generations", {"at value 41"});
}

TEST_F(Generations, GenerationOutsideTheIssuedRange) {
  const auto sentinel = static_cast<std::int64_t>(records::kGenerationExhausted);
  expect_violation(h, s.write(seconds(1), 0, Write{.op = "reserve", .row = row("a", sentinel)}), "generations",
                   {"ObjectGeneration 9223372036854775807", "outside the issued range"});
}

TEST_F(Generations, IllegalTransitions) {
  // Commit that leaves the row Reserved.
  expect_violation(h, s.write(seconds(1), 0, Write{.op = "commit", .row = row("a", 2, "reserved")}), "generations",
                   {"Commit left the row Reserved"});
}

TEST_F(Generations, DeleteOfAReservedRow) {
  expect_violation(h, s.write(seconds(1), 0, Write{.op = "delete", .row = row("a", 2, "reserved")}), "generations",
                   {"Delete removed a Reserved row"});
}

TEST_F(Generations, SweepMayRemoveAReservedRow) {
  EXPECT_LEGAL(s.write(seconds(1), 0, Write{.op = "reserve", .row = row("a", 2)}));
  EXPECT_LEGAL(s.write(seconds(2), 0, Write{.op = "delete", .row = row("a", 2), .via = "sweep"}));
}

TEST_F(Generations, MalformedEventIsReported) {
  expect_violation(h, s.feed(seconds(1), 0, "authority.commit", {F::s("kind", "actor")}), "generations",
                   {"authority.commit #2 lacks field 'id'"});
}

}  // namespace
}  // namespace spotcheck::properties::testing
