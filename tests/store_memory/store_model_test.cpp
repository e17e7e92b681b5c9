// model::StoreModel as an oracle: it accepts what a correct store does and names what a wrong
// one does (results fed by hand, no provider involved).
#include <gtest/gtest.h>

#include "model/store_model.h"

namespace spotcheck::model {
namespace {

using namespace spotcheck::store;

constexpr StoreNowMs kNow = 1'000;

class StoreModelTest : public ::testing::Test {
 protected:
  // Applies a single Put the way a correct store would, with the given version.
  void put(const Key& key, const Bytes& value, std::uint64_t version) {
    const WriteRequest request{{}, {Put{key, value}}};
    ASSERT_EQ(_model.observe_write(request, Applied{{MutationOutcome{StoreVersion{version}, 0}}, kNow}),
              std::nullopt);
  }

  StoreModel _model{ScanExpiryPolicy{100, 2}};
};

TEST_F(StoreModelTest, ReadsMustMatchTheRecords) {
  EXPECT_EQ(_model.observe_read("a", Missing{kNow}), std::nullopt);
  EXPECT_NE(_model.observe_read("a", Found{"x", StoreVersion{1}, kNow}), std::nullopt);
  put("a", "x", 5);
  EXPECT_EQ(_model.observe_read("a", Found{"x", StoreVersion{5}, kNow}), std::nullopt);
  EXPECT_NE(_model.observe_read("a", Found{"x", StoreVersion{6}, kNow}), std::nullopt);
  EXPECT_NE(_model.observe_read("a", Found{"y", StoreVersion{5}, kNow}), std::nullopt);
  EXPECT_NE(_model.observe_read("a", Missing{kNow}), std::nullopt);
  EXPECT_NE(_model.observe_read("a", Found{"x", StoreVersion{5}, kNow - 1}), std::nullopt) << "StoreNow went back";
}

TEST_F(StoreModelTest, ExpectsConflictsWithTheFailingIndex) {
  put("a", "x", 5);
  const WriteRequest stale{{ExpectAbsent{"b"}, ExpectVersion{"a", StoreVersion{4}}}, {Put{"a", "y"}}};
  const auto expected = _model.expect_write(stale);
  ASSERT_TRUE(std::holds_alternative<ExpectConflict>(expected));
  EXPECT_EQ(std::get<ExpectConflict>(expected).index, 1U);
  EXPECT_EQ(_model.observe_write(stale, Conflict{Conflict::Reason::kVersionMismatch, 1, kNow}), std::nullopt);
  EXPECT_NE(_model.observe_write(stale, Conflict{Conflict::Reason::kVersionMismatch, 0, kNow}), std::nullopt);
  EXPECT_NE(_model.observe_write(stale, Applied{{MutationOutcome{StoreVersion{6}, 0}}, kNow}), std::nullopt);
  EXPECT_EQ(_model.record("a")->value, "x") << "a rejected result changes nothing";
}

TEST_F(StoreModelTest, RejectsReusedOrZeroVersions) {
  put("a", "x", 5);
  const WriteRequest request{{}, {Put{"a", "y"}}};
  EXPECT_NE(_model.observe_write(request, Applied{{MutationOutcome{StoreVersion{5}, 0}}, kNow}), std::nullopt);
  EXPECT_NE(_model.observe_write(request, Applied{{MutationOutcome{StoreVersion{0}, 0}}, kNow}), std::nullopt);
  EXPECT_EQ(_model.observe_write(WriteRequest{{}, {Delete{"a"}}}, Applied{{MutationOutcome{}}, kNow}), std::nullopt);
  EXPECT_NE(_model.observe_write(request, Applied{{MutationOutcome{StoreVersion{5}, 0}}, kNow}), std::nullopt)
      << "a version is never reused for a key, even after a delete";
}

TEST_F(StoreModelTest, BoundedCountersAndExhaustion) {
  const WriteRequest inc{{}, {Put{"other", "o"}, Increment{"gen", 1, 1, INT64_MAX - 1}}};
  const auto first = _model.expect_write(inc);
  ASSERT_TRUE(std::holds_alternative<ExpectApplied>(first));
  EXPECT_EQ(std::get<ExpectApplied>(first).counters[1], 1);
  EXPECT_NE(_model.observe_write(inc, Applied{{MutationOutcome{StoreVersion{1}, 0}, MutationOutcome{StoreVersion{2}, 2}}, kNow}),
            std::nullopt)
      << "wrong counter value";
  put("gen", std::to_string(INT64_MAX - 1), 3);
  const auto exhausted = _model.expect_write(inc);
  ASSERT_TRUE(std::holds_alternative<ExpectConflict>(exhausted));
  EXPECT_EQ(std::get<ExpectConflict>(exhausted).reason, Conflict::Reason::kBoundExceeded);
  EXPECT_EQ(std::get<ExpectConflict>(exhausted).index, 1U);
  put("gen", "not a number", 4);
  EXPECT_TRUE(std::holds_alternative<ExpectStoreError>(_model.expect_write(inc)));
}

TEST_F(StoreModelTest, InvalidRequestsExpectInvalidArgument) {
  const WriteRequest empty{};
  EXPECT_TRUE(std::holds_alternative<ExpectStoreError>(_model.expect_write(empty)));
  EXPECT_EQ(_model.observe_write(empty, StoreError{StoreErrorKind::kInvalidArgument, ""}), std::nullopt);
  EXPECT_NE(_model.observe_write(empty, StoreError{StoreErrorKind::kInternal, ""}), std::nullopt);
}

TEST_F(StoreModelTest, ScanPagesMustFollowTheSnapshot) {
  put("a", "1", 1);
  put("b", "2", 2);
  put("c", "3", 3);
  ScanRequest request{"a", "", std::nullopt, 2};
  const ModelScanId id = _model.open_scan(request);
  put("b", "changed", 4);  // after the snapshot: invisible to the scan
  const ScanPage first{{ScanEntry{"a", "1", StoreVersion{1}}, ScanEntry{"b", "2", StoreVersion{2}}}, Bytes("t"), kNow};
  EXPECT_EQ(_model.observe_scan_page(id, request, first), std::nullopt);
  request.continuation = Bytes("t");
  const ScanPage wrong{{ScanEntry{"b", "changed", StoreVersion{4}}}, std::nullopt, kNow};
  EXPECT_NE(_model.observe_scan_page(id, request, wrong), std::nullopt);
}

TEST_F(StoreModelTest, ScanPagesMustNotSkipOrRepeatAndMustEndCorrectly) {
  put("a", "1", 1);
  put("b", "2", 2);
  const ScanRequest request{"a", "", std::nullopt, 1};
  const auto page = [](std::vector<ScanEntry> entries, std::optional<Bytes> continuation) {
    return ScanPage{std::move(entries), std::move(continuation), kNow};
  };
  EXPECT_NE(_model.observe_scan_page(_model.open_scan(request), request, page({ScanEntry{"b", "2", StoreVersion{2}}}, Bytes("t"))),
            std::nullopt)
      << "skipped a";
  EXPECT_NE(_model.observe_scan_page(_model.open_scan(request), request, page({ScanEntry{"a", "1", StoreVersion{1}}}, std::nullopt)),
            std::nullopt)
      << "ended early";
  EXPECT_NE(_model.observe_scan_page(_model.open_scan(request), request, page({}, Bytes("t"))), std::nullopt)
      << "an empty page while entries remain";
  const ScanRequest wide{"a", "", std::nullopt, 5};
  EXPECT_NE(_model.observe_scan_page(_model.open_scan(wide), wide,
                                     page({ScanEntry{"a", "1", StoreVersion{1}}, ScanEntry{"b", "2", StoreVersion{2}}}, Bytes("t"))),
            std::nullopt)
      << "a continuation after the last entry";
}

TEST_F(StoreModelTest, ScanExpiryIsRequiredAfterTheTtlAndWrongBefore) {
  put("a", "1", 1);
  put("b", "2", 2);
  ScanRequest request{"a", "", std::nullopt, 1};
  const ModelScanId early = _model.open_scan(request);
  ASSERT_EQ(_model.observe_scan_page(early, request, ScanPage{{ScanEntry{"a", "1", StoreVersion{1}}}, Bytes("t"), kNow}),
            std::nullopt);
  request.continuation = Bytes("t");
  EXPECT_FALSE(_model.scan_must_expire(early, kNow + 100));
  EXPECT_TRUE(_model.scan_must_expire(early, kNow + 101));
  EXPECT_NE(_model.observe_scan_page(early, request, ScanExpired{kNow + 50}), std::nullopt);

  ScanRequest again{"a", "", std::nullopt, 1};
  const ModelScanId late = _model.open_scan(again);
  ASSERT_EQ(_model.observe_scan_page(late, again, ScanPage{{ScanEntry{"a", "1", StoreVersion{1}}}, Bytes("t"), kNow + 50}),
            std::nullopt);
  again.continuation = Bytes("t");
  EXPECT_NE(_model.observe_scan_page(late, again, ScanPage{{ScanEntry{"b", "2", StoreVersion{2}}}, std::nullopt, kNow + 151}),
            std::nullopt)
      << "a page for an expired continuation";
}

}  // namespace
}  // namespace spotcheck::model
