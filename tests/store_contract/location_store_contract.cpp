// Location Store provider contract (spec §2.1, §3.1–§3.3, §6.1, §6.2, §10, §12): read, conditional
// all-or-nothing write, bounded counters, invalid requests, returned-bytes independence.
// Scans are in scan_contract.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tests/store_contract/contract_fixture.h"

namespace spotcheck::store::contract {
namespace {

constexpr std::int64_t kGenerationMax = INT64_MAX - 1;  // 2^63-2: the sentinel 2^63-1 is never issued

WriteRequest single(Mutation mutation, std::vector<Condition> conditions = {}) {
  WriteRequest request;
  request.conditions = std::move(conditions);
  request.mutations.push_back(std::move(mutation));
  return request;
}

TEST_P(LocationStoreContract, ReadOfAbsentKeyIsMissingWithStoreNow) {
  const ReadResult result = read(key("absent"));
  const auto* missing = std::get_if<Missing>(&result);
  ASSERT_NE(missing, nullptr) << describe(result);
  EXPECT_GT(missing->now_ms, 0);
}

TEST_P(LocationStoreContract, ReadOfAbsentKeyCreatesNoRecordAndNoVersion) {
  expect_missing(key("absent"));
  expect_missing(key("absent"));
  // Nothing was created: ExpectAbsent still holds and a scan sees nothing.
  const WriteResult result = write(single(Put{key("other"), "x"}, {ExpectAbsent{key("absent")}}));
  ASSERT_TRUE(std::holds_alternative<Applied>(result)) << describe(result);
  const ScanOutcome all = scan_all(key("absent"), key("absent") + '\0', 10);
  EXPECT_TRUE(all.complete);
  EXPECT_TRUE(all.entries.empty());
}

TEST_P(LocationStoreContract, PutThenReadIsFoundWithSameBytesAndVersion) {
  const StoreVersion version = put(key("a"), "alpha");
  const Found found = read_found(key("a"));
  EXPECT_EQ(found.value, "alpha");
  EXPECT_EQ(found.version, version);
  EXPECT_GT(found.now_ms, 0);
}

TEST_P(LocationStoreContract, BinaryKeysAndValuesRoundTrip) {
  const Key binary_key = key(std::string("b\0\xff\x01", 4));
  const Bytes binary_value = std::string("\0\x01\xfe\xff{}\"\\\n", 9);
  put(binary_key, binary_value);
  EXPECT_EQ(read_found(binary_key).value, binary_value);
  put(key("empty-value"), "");
  EXPECT_EQ(read_found(key("empty-value")).value, "");
}

TEST_P(LocationStoreContract, StoreNowNeverGoesBackAndFollowsStoreTime) {
  const ReadResult first = read(key("a"));
  ASSERT_TRUE(std::holds_alternative<Missing>(first)) << describe(first);
  const StoreNowMs first_ms = std::get<Missing>(first).now_ms;
  let_store_time_pass(20);
  const ReadResult second = read(key("a"));
  ASSERT_TRUE(std::holds_alternative<Missing>(second)) << describe(second);
  EXPECT_GE(std::get<Missing>(second).now_ms, first_ms + 20);
  const WriteResult written = write(single(Put{key("a"), "x"}));
  ASSERT_TRUE(std::holds_alternative<Applied>(written)) << describe(written);
  EXPECT_GE(std::get<Applied>(written).now_ms, std::get<Missing>(second).now_ms);
}

TEST_P(LocationStoreContract, CasWithCurrentVersionAppliesAndIssuesANewVersion) {
  const StoreVersion v1 = put(key("a"), "one");
  const WriteResult result = write(single(Put{key("a"), "two"}, {ExpectVersion{key("a"), v1}}));
  const auto* applied = std::get_if<Applied>(&result);
  ASSERT_NE(applied, nullptr) << describe(result);
  ASSERT_EQ(applied->outcomes.size(), 1U);
  const StoreVersion v2 = applied->outcomes[0].version;
  EXPECT_NE(v2.value, 0U);
  EXPECT_NE(v2, v1);
  const Found found = read_found(key("a"));
  EXPECT_EQ(found.value, "two");
  EXPECT_EQ(found.version, v2);
}

TEST_P(LocationStoreContract, CasWithStaleVersionConflictsNamesTheConditionAndChangesNothing) {
  const StoreVersion a1 = put(key("a"), "a-one");
  const StoreVersion b1 = put(key("b"), "b-one");
  const WriteResult moved = write(single(Put{key("b"), "b-two"}, {ExpectVersion{key("b"), b1}}));
  ASSERT_TRUE(std::holds_alternative<Applied>(moved)) << describe(moved);
  const StoreVersion b2 = read_found(key("b")).version;

  WriteRequest request;
  request.conditions = {ExpectVersion{key("a"), a1}, ExpectVersion{key("b"), b1}, ExpectAbsent{key("c")}};
  request.mutations = {Put{key("a"), "a-new"}, Put{key("c"), "c-new"}, Delete{key("b")}};
  const WriteResult result = write(request);
  const auto* conflict = std::get_if<Conflict>(&result);
  ASSERT_NE(conflict, nullptr) << describe(result);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kVersionMismatch);
  EXPECT_EQ(conflict->index, 1U);
  EXPECT_GT(conflict->now_ms, 0);

  const Found a = read_found(key("a"));
  EXPECT_EQ(a.value, "a-one");
  EXPECT_EQ(a.version, a1);
  const Found b = read_found(key("b"));
  EXPECT_EQ(b.value, "b-two");
  EXPECT_EQ(b.version, b2);
  expect_missing(key("c"));
}

TEST_P(LocationStoreContract, ExpectVersionOnAbsentKeyConflicts) {
  const StoreVersion v1 = put(key("a"), "one");
  ASSERT_TRUE(std::holds_alternative<Applied>(write(single(Delete{key("a")}))));
  const WriteResult result = write(single(Put{key("a"), "two"}, {ExpectVersion{key("a"), v1}}));
  const auto* conflict = std::get_if<Conflict>(&result);
  ASSERT_NE(conflict, nullptr) << describe(result);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kVersionMismatch);
  EXPECT_EQ(conflict->index, 0U);
  expect_missing(key("a"));
}

TEST_P(LocationStoreContract, ExpectAbsentAppliesOnAbsentKeyAndConflictsOnPresentKey) {
  const WriteResult first = write(single(Put{key("a"), "one"}, {ExpectAbsent{key("a")}}));
  ASSERT_TRUE(std::holds_alternative<Applied>(first)) << describe(first);
  const Found before = read_found(key("a"));

  const WriteResult second = write(single(Put{key("a"), "two"}, {ExpectAbsent{key("a")}}));
  const auto* conflict = std::get_if<Conflict>(&second);
  ASSERT_NE(conflict, nullptr) << describe(second);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kVersionMismatch);
  EXPECT_EQ(conflict->index, 0U);
  const Found after = read_found(key("a"));
  EXPECT_EQ(after.value, "one");
  EXPECT_EQ(after.version, before.version);
}

TEST_P(LocationStoreContract, MultiKeyWriteAppliesAllMutationsTogether) {
  const StoreVersion a1 = put(key("a"), "a-one");
  put(key("d"), "doomed");
  WriteRequest request;
  request.conditions = {ExpectVersion{key("a"), a1}, ExpectAbsent{key("b")}};
  request.mutations = {Put{key("a"), "a-two"}, Put{key("b"), "b-one"}, Delete{key("d")},
                       Increment{key("n"), 5, 0, 100}};
  const WriteResult result = write(request);
  const auto* applied = std::get_if<Applied>(&result);
  ASSERT_NE(applied, nullptr) << describe(result);
  ASSERT_EQ(applied->outcomes.size(), 4U);
  EXPECT_NE(applied->outcomes[0].version.value, 0U);
  EXPECT_NE(applied->outcomes[1].version.value, 0U);
  EXPECT_EQ(applied->outcomes[2].version.value, 0U) << "Delete reports version zero";
  EXPECT_NE(applied->outcomes[3].version.value, 0U);
  EXPECT_EQ(applied->outcomes[3].counter, 5);

  const Found a = read_found(key("a"));
  EXPECT_EQ(a.value, "a-two");
  EXPECT_EQ(a.version, applied->outcomes[0].version);
  const Found b = read_found(key("b"));
  EXPECT_EQ(b.value, "b-one");
  EXPECT_EQ(b.version, applied->outcomes[1].version);
  expect_missing(key("d"));
  const Found n = read_found(key("n"));
  EXPECT_EQ(n.value, "5");
  EXPECT_EQ(n.version, applied->outcomes[3].version);
}

TEST_P(LocationStoreContract, MultiKeyWriteWithOneFailingConditionChangesNoKey) {
  const StoreVersion a1 = put(key("a"), "a-one");
  put(key("b"), "b-one");
  put(key("d"), "d-one");
  WriteRequest request;
  request.conditions = {ExpectVersion{key("a"), a1}, ExpectAbsent{key("b")}};
  request.mutations = {Put{key("a"), "a-two"}, Put{key("c"), "c-one"}, Delete{key("d")},
                       Increment{key("n"), 1, 0, 10}};
  const WriteResult result = write(request);
  const auto* conflict = std::get_if<Conflict>(&result);
  ASSERT_NE(conflict, nullptr) << describe(result);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kVersionMismatch);
  EXPECT_EQ(conflict->index, 1U);
  EXPECT_EQ(read_found(key("a")).value, "a-one");
  EXPECT_EQ(read_found(key("a")).version, a1);
  expect_missing(key("c"));
  EXPECT_EQ(read_found(key("d")).value, "d-one");
  expect_missing(key("n"));
}

TEST_P(LocationStoreContract, VersionsAreNeverReusedForAKey) {
  std::vector<StoreVersion> versions;
  versions.push_back(put(key("a"), "x"));
  versions.push_back(put(key("a"), "x"));  // same bytes: still a new version
  ASSERT_TRUE(std::holds_alternative<Applied>(write(single(Delete{key("a")}))));
  versions.push_back(put(key("a"), "x"));
  const WriteResult inc = write(single(Increment{key("a2"), 1, 0, 10}));
  ASSERT_TRUE(std::holds_alternative<Applied>(inc)) << describe(inc);
  for (std::size_t i = 0; i < versions.size(); ++i) {
    EXPECT_NE(versions[i].value, 0U);
    for (std::size_t j = i + 1; j < versions.size(); ++j) {
      EXPECT_NE(versions[i], versions[j]) << i << " vs " << j;
    }
  }
  // A version from before the delete does not match the re-created key.
  const WriteResult stale = write(single(Put{key("a"), "y"}, {ExpectVersion{key("a"), versions[1]}}));
  EXPECT_TRUE(std::holds_alternative<Conflict>(stale)) << describe(stale);
}

TEST_P(LocationStoreContract, DeleteRemovesAKeyAndDeletingAnAbsentKeyIsAllowed) {
  const StoreVersion v1 = put(key("a"), "one");
  const WriteResult deleted = write(single(Delete{key("a")}, {ExpectVersion{key("a"), v1}}));
  const auto* applied = std::get_if<Applied>(&deleted);
  ASSERT_NE(applied, nullptr) << describe(deleted);
  ASSERT_EQ(applied->outcomes.size(), 1U);
  EXPECT_EQ(applied->outcomes[0].version.value, 0U);
  expect_missing(key("a"));

  const WriteResult again = write(single(Delete{key("a")}));
  ASSERT_TRUE(std::holds_alternative<Applied>(again)) << describe(again);
  expect_missing(key("a"));
}

TEST_P(LocationStoreContract, IncrementStartsFromZeroAndStoresDecimalAscii) {
  const WriteResult first = write(single(Increment{key("n"), 1, 0, 1000}));
  const auto* applied = std::get_if<Applied>(&first);
  ASSERT_NE(applied, nullptr) << describe(first);
  EXPECT_EQ(applied->outcomes.at(0).counter, 1);
  EXPECT_EQ(read_found(key("n")).value, "1");

  const WriteResult second = write(single(Increment{key("n"), 41, 0, 1000}));
  ASSERT_TRUE(std::holds_alternative<Applied>(second)) << describe(second);
  EXPECT_EQ(std::get<Applied>(second).outcomes.at(0).counter, 42);
  EXPECT_EQ(read_found(key("n")).value, "42");

  const WriteResult down = write(single(Increment{key("n"), -50, -100, 1000}));
  ASSERT_TRUE(std::holds_alternative<Applied>(down)) << describe(down);
  EXPECT_EQ(std::get<Applied>(down).outcomes.at(0).counter, -8);
  EXPECT_EQ(read_found(key("n")).value, "-8");
}

TEST_P(LocationStoreContract, IncrementContinuesFromAPutDecimalValue) {
  put(key("n"), "1234567890123");
  const WriteResult result = write(single(Increment{key("n"), 7, 0, INT64_MAX}));
  ASSERT_TRUE(std::holds_alternative<Applied>(result)) << describe(result);
  EXPECT_EQ(std::get<Applied>(result).outcomes.at(0).counter, 1234567890130);
  EXPECT_EQ(read_found(key("n")).value, "1234567890130");
}

TEST_P(LocationStoreContract, IncrementPastMaxIsBoundExceededNamesTheMutationAndChangesNothing) {
  put(key("n"), "9");
  const Found before = read_found(key("n"));
  WriteRequest request;
  request.mutations = {Put{key("a"), "a"}, Increment{key("m"), 1, 0, 10}, Increment{key("n"), 2, 0, 10},
                       Delete{key("n2")}};
  const WriteResult result = write(request);
  const auto* conflict = std::get_if<Conflict>(&result);
  ASSERT_NE(conflict, nullptr) << describe(result);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kBoundExceeded);
  EXPECT_EQ(conflict->index, 2U);
  expect_missing(key("a"));
  expect_missing(key("m"));
  const Found after = read_found(key("n"));
  EXPECT_EQ(after.value, "9");
  EXPECT_EQ(after.version, before.version);
}

TEST_P(LocationStoreContract, IncrementBelowMinIsBoundExceeded) {
  const WriteResult result = write(single(Increment{key("n"), -1, 0, 10}));
  const auto* conflict = std::get_if<Conflict>(&result);
  ASSERT_NE(conflict, nullptr) << describe(result);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kBoundExceeded);
  EXPECT_EQ(conflict->index, 0U);
  expect_missing(key("n"));
}

TEST_P(LocationStoreContract, IncrementReachingExactlyTheBoundApplies) {
  const WriteResult up = write(single(Increment{key("n"), 10, 0, 10}));
  ASSERT_TRUE(std::holds_alternative<Applied>(up)) << describe(up);
  EXPECT_EQ(std::get<Applied>(up).outcomes.at(0).counter, 10);
  const WriteResult down = write(single(Increment{key("n"), -10, 0, 10}));
  ASSERT_TRUE(std::holds_alternative<Applied>(down)) << describe(down);
  EXPECT_EQ(std::get<Applied>(down).outcomes.at(0).counter, 0);
  EXPECT_EQ(read_found(key("n")).value, "0");
}

TEST_P(LocationStoreContract, GenerationCounterNeverIssuesTheSentinelAndExhaustionIsStable) {
  // The counter holds 2^63-3; the last issuable generation is 2^63-2.
  put(key("gen"), std::to_string(kGenerationMax - 1));
  const WriteResult last = write(single(Increment{key("gen"), 1, 1, kGenerationMax}));
  ASSERT_TRUE(std::holds_alternative<Applied>(last)) << describe(last);
  EXPECT_EQ(std::get<Applied>(last).outcomes.at(0).counter, kGenerationMax);
  const Found exhausted = read_found(key("gen"));
  EXPECT_EQ(exhausted.value, std::to_string(kGenerationMax));

  for (int attempt = 0; attempt < 3; ++attempt) {
    const WriteResult again = write(single(Increment{key("gen"), 1, 1, kGenerationMax}));
    const auto* conflict = std::get_if<Conflict>(&again);
    ASSERT_NE(conflict, nullptr) << "attempt " << attempt << ": " << describe(again);
    EXPECT_EQ(conflict->reason, Conflict::Reason::kBoundExceeded);
    EXPECT_EQ(conflict->index, 0U);
    const Found after = read_found(key("gen"));
    EXPECT_EQ(after.value, exhausted.value);
    EXPECT_EQ(after.version, exhausted.version);
  }
  // An increment whose sum would overflow int64 is also only BoundExceeded.
  put(key("big"), std::to_string(INT64_MAX));
  const WriteResult overflow = write(single(Increment{key("big"), 1, 0, INT64_MAX}));
  const auto* conflict = std::get_if<Conflict>(&overflow);
  ASSERT_NE(conflict, nullptr) << describe(overflow);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kBoundExceeded);
  EXPECT_EQ(read_found(key("big")).value, std::to_string(INT64_MAX));
}

TEST_P(LocationStoreContract, ConditionsAreCheckedBeforeBounds) {
  put(key("n"), "10");
  WriteRequest request;
  request.conditions = {ExpectAbsent{key("n")}};
  request.mutations = {Increment{key("n"), 1, 0, 10}};
  const WriteResult result = write(request);
  const auto* conflict = std::get_if<Conflict>(&result);
  ASSERT_NE(conflict, nullptr) << describe(result);
  EXPECT_EQ(conflict->reason, Conflict::Reason::kVersionMismatch);
  EXPECT_EQ(conflict->index, 0U);
}

TEST_P(LocationStoreContract, InvalidWritesAreInvalidArgumentAndChangeNothing) {
  const StoreVersion v1 = put(key("a"), "one");
  std::vector<std::pair<std::string, WriteRequest>> invalid;
  invalid.emplace_back("no mutations", WriteRequest{{ExpectAbsent{key("z")}}, {}});
  invalid.emplace_back("empty key", single(Put{"", "x"}));
  invalid.emplace_back("key too long", single(Put{key(std::string(kMaxKeyBytes, 'k')), "x"}));
  invalid.emplace_back("two mutations on one key",
                       WriteRequest{{}, {Put{key("a"), "x"}, Delete{key("a")}}});
  invalid.emplace_back("expected version zero",
                       single(Put{key("a"), "x"}, {ExpectVersion{key("a"), StoreVersion{0}}}));
  invalid.emplace_back("empty increment bounds", single(Increment{key("n"), 1, 5, 4}));
  invalid.emplace_back("empty condition key", single(Put{key("a"), "x"}, {ExpectAbsent{""}}));
  invalid.emplace_back("value too large", single(Put{key("a"), std::string(kMaxValueBytes + 1, 'v')}));
  for (const auto& [name, request] : invalid) {
    const WriteResult result = write(request);
    const auto* error = std::get_if<StoreError>(&result);
    ASSERT_NE(error, nullptr) << name << ": " << describe(result);
    EXPECT_EQ(error->kind, StoreErrorKind::kInvalidArgument) << name;
  }
  const Found a = read_found(key("a"));
  EXPECT_EQ(a.value, "one");
  EXPECT_EQ(a.version, v1);
  expect_missing(key("n"));
}

TEST_P(LocationStoreContract, InvalidReadKeyIsInvalidArgument) {
  for (const Key& bad : {Key(), Key(kMaxKeyBytes + 1, 'k')}) {
    const ReadResult result = read(bad);
    const auto* error = std::get_if<StoreError>(&result);
    ASSERT_NE(error, nullptr) << describe(result);
    EXPECT_EQ(error->kind, StoreErrorKind::kInvalidArgument);
  }
}

TEST_P(LocationStoreContract, ReturnedBytesAreIndependentOfLaterWrites) {
  WriteRequest request = single(Put{key("a"), "original"});
  ASSERT_TRUE(std::holds_alternative<Applied>(write(request)));
  // The provider copied the input: changing the caller's buffer changes nothing stored.
  std::get<Put>(request.mutations[0]).value.assign("scribbled");
  const Found first = read_found(key("a"));
  EXPECT_EQ(first.value, "original");

  put(key("a"), "replaced");
  ASSERT_TRUE(std::holds_alternative<Applied>(write(single(Delete{key("a")}))));
  EXPECT_EQ(first.value, "original");
  put(key("a"), "third");
  EXPECT_EQ(first.value, "original");
  EXPECT_EQ(read_found(key("a")).value, "third");
}

}  // namespace
}  // namespace spotcheck::store::contract
