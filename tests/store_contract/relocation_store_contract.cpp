// Relocation Store provider contract (spec §1.2, §10): immutable put-once payloads under a
// reference fixed in advance, get, remove, retention by store time, returned bytes never change.
#include <gtest/gtest.h>

#include <string>

#include "tests/store_contract/contract_fixture.h"

namespace spotcheck::store::contract {
namespace {

constexpr std::int64_t kLongRetentionMs = 3'600'000;

TEST_P(RelocationStoreContract, GetOfAnUnknownReferenceIsMissing) {
  const GetResult result = get(key("unknown"));
  const auto* missing = std::get_if<PayloadMissing>(&result);
  ASSERT_NE(missing, nullptr) << describe(result);
  EXPECT_GT(missing->now_ms, 0);
}

TEST_P(RelocationStoreContract, PutThenGetReturnsTheSameBytes) {
  const Bytes payload = std::string("cold-activation\0record\xff", 24);
  const PutResult stored = put(key("r"), payload, kLongRetentionMs);
  const auto* ok = std::get_if<Stored>(&stored);
  ASSERT_NE(ok, nullptr) << describe(stored);
  EXPECT_FALSE(ok->already_present);
  EXPECT_GT(ok->now_ms, 0);
  const GetResult result = get(key("r"));
  const auto* found = std::get_if<PayloadFound>(&result);
  ASSERT_NE(found, nullptr) << describe(result);
  EXPECT_EQ(found->payload, payload);
}

TEST_P(RelocationStoreContract, EmptyPayloadIsStored) {
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "", kLongRetentionMs)));
  const GetResult result = get(key("r"));
  ASSERT_TRUE(std::holds_alternative<PayloadFound>(result)) << describe(result);
  EXPECT_EQ(std::get<PayloadFound>(result).payload, "");
}

TEST_P(RelocationStoreContract, PuttingTheSameBytesAgainIsAlreadyPresent) {
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "payload", kLongRetentionMs)));
  for (int attempt = 0; attempt < 2; ++attempt) {
    const PutResult again = put(key("r"), "payload", kLongRetentionMs);
    const auto* stored = std::get_if<Stored>(&again);
    ASSERT_NE(stored, nullptr) << describe(again);
    EXPECT_TRUE(stored->already_present);
  }
  const GetResult result = get(key("r"));
  ASSERT_TRUE(std::holds_alternative<PayloadFound>(result)) << describe(result);
  EXPECT_EQ(std::get<PayloadFound>(result).payload, "payload");
}

TEST_P(RelocationStoreContract, PuttingDifferentBytesIsPayloadConflictAndKeepsTheOriginal) {
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "first", kLongRetentionMs)));
  for (const Bytes& other : {Bytes("second"), Bytes("firs"), Bytes("first "), Bytes()}) {
    const PutResult conflict = put(key("r"), other, kLongRetentionMs);
    const auto* payload_conflict = std::get_if<PayloadConflict>(&conflict);
    ASSERT_NE(payload_conflict, nullptr) << "'" << other << "': " << describe(conflict);
    EXPECT_GT(payload_conflict->now_ms, 0);
  }
  const GetResult result = get(key("r"));
  ASSERT_TRUE(std::holds_alternative<PayloadFound>(result)) << describe(result);
  EXPECT_EQ(std::get<PayloadFound>(result).payload, "first");
}

TEST_P(RelocationStoreContract, ReferencesAreIndependent) {
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r1"), "one", kLongRetentionMs)));
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r2"), "two", kLongRetentionMs)));
  EXPECT_EQ(std::get<PayloadFound>(get(key("r1"))).payload, "one");
  EXPECT_EQ(std::get<PayloadFound>(get(key("r2"))).payload, "two");
}

TEST_P(RelocationStoreContract, RemoveDeletesAndReportsWhetherThePayloadWasPresent) {
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "payload", kLongRetentionMs)));
  const DeleteResult first = remove(key("r"));
  const auto* deleted = std::get_if<Deleted>(&first);
  ASSERT_NE(deleted, nullptr) << describe(first);
  EXPECT_TRUE(deleted->was_present);
  EXPECT_TRUE(std::holds_alternative<PayloadMissing>(get(key("r"))));
  const DeleteResult second = remove(key("r"));
  ASSERT_TRUE(std::holds_alternative<Deleted>(second)) << describe(second);
  EXPECT_FALSE(std::get<Deleted>(second).was_present);
}

TEST_P(RelocationStoreContract, PutAfterRemoveStoresAgain) {
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "first", kLongRetentionMs)));
  ASSERT_TRUE(std::holds_alternative<Deleted>(remove(key("r"))));
  const PutResult again = put(key("r"), "second", kLongRetentionMs);
  ASSERT_TRUE(std::holds_alternative<Stored>(again)) << describe(again);
  EXPECT_FALSE(std::get<Stored>(again).already_present);
  EXPECT_EQ(std::get<PayloadFound>(get(key("r"))).payload, "second");
}

TEST_P(RelocationStoreContract, PayloadStaysWithinItsRetention) {
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "payload", 60'000)));
  let_store_time_pass(50);
  const GetResult result = get(key("r"));
  EXPECT_TRUE(std::holds_alternative<PayloadFound>(result)) << describe(result);
}

TEST_P(RelocationStoreContract, PayloadIsGoneAfterItsRetention) {
  constexpr std::int64_t kRetentionMs = 100;
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "payload", kRetentionMs)));
  let_store_time_pass(kRetentionMs * 3);
  const GetResult result = get(key("r"));
  EXPECT_TRUE(std::holds_alternative<PayloadMissing>(result)) << describe(result);
  // The reference can be used again once the payload is gone.
  const PutResult again = put(key("r"), "other", kLongRetentionMs);
  ASSERT_TRUE(std::holds_alternative<Stored>(again)) << describe(again);
  EXPECT_FALSE(std::get<Stored>(again).already_present);
}

TEST_P(RelocationStoreContract, ReturnedBytesNeverChangeAndInputIsCopied) {
  PayloadPut request{key("r"), "original", kLongRetentionMs};
  ASSERT_TRUE(std::holds_alternative<Stored>(store().put(request, deadline())));
  request.payload.assign("scribbled");
  const GetResult first = get(key("r"));
  ASSERT_TRUE(std::holds_alternative<PayloadFound>(first)) << describe(first);
  EXPECT_EQ(std::get<PayloadFound>(first).payload, "original");
  ASSERT_TRUE(std::holds_alternative<Deleted>(remove(key("r"))));
  ASSERT_TRUE(std::holds_alternative<Stored>(put(key("r"), "replacement", kLongRetentionMs)));
  EXPECT_EQ(std::get<PayloadFound>(first).payload, "original");
}

TEST_P(RelocationStoreContract, InvalidReferenceIsInvalidArgument) {
  for (const Key& bad : {Key(), Key(kMaxKeyBytes + 1, 'r')}) {
    const PutResult put_result = put(bad, "payload", kLongRetentionMs);
    ASSERT_TRUE(std::holds_alternative<StoreError>(put_result)) << describe(put_result);
    EXPECT_EQ(std::get<StoreError>(put_result).kind, StoreErrorKind::kInvalidArgument);
    const GetResult get_result = get(bad);
    ASSERT_TRUE(std::holds_alternative<StoreError>(get_result)) << describe(get_result);
    EXPECT_EQ(std::get<StoreError>(get_result).kind, StoreErrorKind::kInvalidArgument);
    const DeleteResult remove_result = remove(bad);
    ASSERT_TRUE(std::holds_alternative<StoreError>(remove_result)) << describe(remove_result);
    EXPECT_EQ(std::get<StoreError>(remove_result).kind, StoreErrorKind::kInvalidArgument);
  }
}

}  // namespace
}  // namespace spotcheck::store::contract
