// Redis-specific provider behaviour beyond the contract suite: storage layout, MVCC history kept
// only while a scan may need it, namespace safety, counter edge cases, shared continuations.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <limits>
#include <thread>

#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::redis {
namespace {

using testing::test_clock;
using testing::test_options;
using testing::kNoDeadline;
using testing::kRawTimeoutUs;


class RedisProvider : public ::testing::Test {
 protected:
  void SetUp() override {
    SPOTCHECK_REDIS_URL_OR_RETURN(url);
    _url = url;
    _stores = open_redis_stores(test_options(url, kScanTtlMs), test_clock());
    ASSERT_NE(_stores.location, nullptr) << _stores.error;
  }
  void TearDown() override {
    if (_stores.session) {
      EXPECT_EQ(_stores.session->clear_namespace(), "");
    }
  }

  LocationStore& store() { return *_stores.location; }
  RedisSession& session() { return *_stores.session; }
  const std::string& ns() { return _stores.session->key_namespace(); }

  StoreVersion put(const Key& key, const Bytes& value) {
    WriteRequest request;
    request.mutations.push_back(Put{key, value});
    const WriteResult result = store().write(request, kNoDeadline);
    EXPECT_TRUE(std::holds_alternative<Applied>(result));
    return std::holds_alternative<Applied>(result) ? std::get<Applied>(result).outcomes.at(0).version : StoreVersion{};
  }
  void remove(const Key& key) {
    const WriteResult result = store().write(WriteRequest{{}, {Delete{key}}}, kNoDeadline);
    EXPECT_TRUE(std::holds_alternative<Applied>(result));
  }
  // A raw command on the provider's own connection.
  ReplyPtr raw(std::initializer_list<std::string_view> argv) {
    const std::vector<std::string_view> args(argv);
    std::string error = session().connection().ensure_connected(kRawTimeoutUs);
    EXPECT_EQ(error, "");
    CallResult result = session().connection().call(args, kRawTimeoutUs);
    EXPECT_EQ(result.failure, CallFailure::kNone) << result.message;
    return std::move(result.reply);
  }
  // Keys under the namespace whose name continues with `infix`.
  std::size_t count_keys(std::string_view infix) {
    const std::string pattern = glob_escape(ns() + std::string(infix)) + "*";
    std::size_t count = 0;
    std::string cursor = "0";
    for (int round = 0; round < 10'000; ++round) {
      ReplyPtr reply = raw({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
      if (!reply || reply->type != REDIS_REPLY_ARRAY) {
        ADD_FAILURE() << "SCAN failed";
        return count;
      }
      count += reply->element[1]->elements;
      cursor = std::string(reply_text(reply->element[0]));
      if (cursor == "0") {
        break;
      }
    }
    return count;
  }
  ScanPage first_page(std::uint32_t max_entries) {
    const ScanResult result = store().scan(ScanRequest{"k", "l", std::nullopt, max_entries}, kNoDeadline);
    EXPECT_TRUE(std::holds_alternative<ScanPage>(result));
    return std::holds_alternative<ScanPage>(result) ? std::get<ScanPage>(result) : ScanPage{};
  }

  static constexpr std::int64_t kScanTtlMs = 700;
  std::string _url;
  RedisStores _stores;
};

TEST_F(RedisProvider, RecordIsAHashOfValueAndVersionAtTheSha256Key) {
  const Bytes value("\0binary\xff value", 14);
  const StoreVersion version = put("some logical key", value);
  const std::string record = record_key(ns(), "some logical key");
  ReplyPtr all = raw({"HGETALL", record});
  ASSERT_EQ(all->type, REDIS_REPLY_ARRAY);
  ASSERT_EQ(all->elements, 4U) << "exactly the fields v and ver";
  ReplyPtr v = raw({"HGET", record, "v"});
  EXPECT_EQ(reply_text(v.get()), value);
  ReplyPtr ver = raw({"HGET", record, "ver"});
  EXPECT_EQ(reply_text(ver.get()), std::to_string(version.value));
  ReplyPtr member = raw({"ZSCORE", ns() + "idx", index_member("some logical key")});
  EXPECT_EQ(reply_text(member.get()), "0");
}

TEST_F(RedisProvider, NoHistoryIsKeptWithoutOpenScansAndDeletesLeaveNothing) {
  for (int i = 0; i < 5; ++i) {
    put("k1", "v" + std::to_string(i));
  }
  remove("k1");
  EXPECT_EQ(count_keys("old:"), 0U);
  EXPECT_EQ(count_keys("hist:"), 0U);
  EXPECT_EQ(count_keys("rec:"), 0U);
  ReplyPtr index_size = raw({"ZCARD", ns() + "idx"});
  EXPECT_EQ(index_size->integer, 0);
}

TEST_F(RedisProvider, HistoryIsKeptWhileAScanMayNeedItAndCollectedAfterItEnds) {
  for (int i = 0; i < 6; ++i) {
    put("k" + std::to_string(i), "old" + std::to_string(i));
  }
  ScanPage page = first_page(2);
  ASSERT_TRUE(page.continuation.has_value());
  for (int i = 0; i < 6; ++i) {
    put("k" + std::to_string(i), "new" + std::to_string(i));
  }
  remove("k5");
  EXPECT_EQ(count_keys("old:"), 6U) << "each replaced version is kept for the open scan";

  std::vector<ScanEntry> seen = page.entries;
  ScanRequest request{"k", "l", page.continuation, 2};
  for (int p = 0; p < 10 && request.continuation; ++p) {
    const ScanResult result = store().scan(request, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<ScanPage>(result));
    const auto& next = std::get<ScanPage>(result);
    seen.insert(seen.end(), next.entries.begin(), next.entries.end());
    request.continuation = next.continuation;
  }
  ASSERT_EQ(seen.size(), 6U);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(seen[i].value, "old" + std::to_string(i));
  }
  // The scan ended: the next write collects the garbage (up to 8 keys per write).
  put("other", "x");
  EXPECT_EQ(count_keys("old:"), 0U);
  EXPECT_EQ(count_keys("hist:"), 0U);
  ReplyPtr deleted_member = raw({"ZSCORE", ns() + "idx", index_member("k5")});
  EXPECT_EQ(deleted_member->type, REDIS_REPLY_NIL) << "a deleted key leaves the index with its history";
}

TEST_F(RedisProvider, HistoryOfAnExpiredScanIsCollectedAndItsContinuationExpires) {
  for (int i = 0; i < 3; ++i) {
    put("k" + std::to_string(i), "old");
  }
  ScanPage page = first_page(1);
  ASSERT_TRUE(page.continuation.has_value());
  put("k1", "new");
  EXPECT_EQ(count_keys("old:"), 1U);
  std::this_thread::sleep_for(std::chrono::milliseconds(kScanTtlMs + 100));
  put("k2", "new");
  EXPECT_EQ(count_keys("old:"), 0U);
  const ScanResult late = store().scan(ScanRequest{"k", "l", page.continuation, 1}, kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(late));
}

TEST_F(RedisProvider, AnotherClientOfTheNamespaceContinuesAScanButAnotherNamespaceCannot) {
  for (int i = 0; i < 3; ++i) {
    put("k" + std::to_string(i), "v");
  }
  const ScanPage page = first_page(1);
  ASSERT_TRUE(page.continuation.has_value());

  RedisStoreOptions same = test_options(_url, kScanTtlMs);
  same.key_namespace = ns();
  RedisStores second = open_redis_stores(same, test_clock());
  ASSERT_NE(second.location, nullptr) << second.error;
  const ScanResult continued = second.location->scan(ScanRequest{"k", "l", page.continuation, 5}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(continued));
  EXPECT_EQ(std::get<ScanPage>(continued).entries.size(), 2U);

  RedisStores other = open_redis_stores(test_options(_url, kScanTtlMs), test_clock());
  ASSERT_NE(other.location, nullptr) << other.error;
  const ScanResult foreign = other.location->scan(ScanRequest{"k", "l", page.continuation, 5}, kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(foreign));
  EXPECT_EQ(other.session->clear_namespace(), "");
}

// A read-only session (spotcheck locate) reads and scans, and refuses every write before sending it.
TEST_F(RedisProvider, AReadOnlySessionReadsAndScansButRefusesEveryWrite) {
  put("k1", "v1");
  RedisStoreOptions options = test_options(_url, kScanTtlMs);
  options.key_namespace = ns();
  options.read_only = true;
  RedisStores reader = open_redis_stores(options, test_clock());
  ASSERT_NE(reader.location, nullptr) << reader.error;
  const ReadResult read = reader.location->read("k1", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  EXPECT_EQ(std::get<Found>(read).value, "v1");
  const ScanResult scanned = reader.location->scan(ScanRequest{"k", "l", std::nullopt, 10}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(scanned));
  EXPECT_EQ(std::get<ScanPage>(scanned).entries.size(), 1U);
  const WriteResult written = reader.location->write(WriteRequest{{}, {Put{"k2", "v"}}}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<StoreError>(written));
  EXPECT_EQ(std::get<StoreError>(written).kind, StoreErrorKind::kInvalidArgument);
  EXPECT_TRUE(std::holds_alternative<StoreError>(reader.relocation->put(PayloadPut{"r", "p", 0}, kNoDeadline)));
  EXPECT_TRUE(std::holds_alternative<StoreError>(reader.relocation->remove("r", kNoDeadline)));
  EXPECT_TRUE(std::holds_alternative<Missing>(store().read("k2", kNoDeadline))) << "nothing was written";
}

TEST_F(RedisProvider, ANamespaceWithForeignKeysIsRefusedUnlessAdopted) {
  RedisStoreOptions options = test_options(_url);
  raw({"SET", options.key_namespace + "somebody-elses-key", "x"});
  const RedisStores refused = open_redis_stores(options, test_clock());
  EXPECT_EQ(refused.session, nullptr);
  EXPECT_NE(refused.error.find("holds keys this provider did not write"), std::string::npos) << refused.error;
  EXPECT_EQ(refused.error.find('\n'), std::string::npos);

  options.adopt_foreign_namespace = true;
  RedisStores adopted = open_redis_stores(options, test_clock());
  ASSERT_NE(adopted.session, nullptr) << adopted.error;
  // An adopted namespace is not marked as the provider's: later opens still need the override.
  EXPECT_EQ(raw({"EXISTS", options.key_namespace + "provider"})->integer, 0);
  options.adopt_foreign_namespace = false;
  const RedisStores again = open_redis_stores(options, test_clock());
  EXPECT_EQ(again.session, nullptr);
  EXPECT_EQ(adopted.session->clear_namespace(), "");
}

// Issue 9: adopting wrote the marker over a foreign key of that name.
TEST_F(RedisProvider, AdoptingNeverChangesAForeignKeyAtTheMarkersName) {
  RedisStoreOptions options = test_options(_url);
  raw({"SET", options.key_namespace + "provider", "someone else's"});
  options.adopt_foreign_namespace = true;
  std::vector<std::string> seen;
  RedisStores adopted = open_redis_stores(options, test_clock(), [&](RedisSession& session) {
    const RedisSession::KeyList listed = session.list_keys(10);  // the hook runs before anything is written
    EXPECT_EQ(listed.error, "");
    seen = listed.keys;
    return std::string();
  });
  ASSERT_NE(adopted.session, nullptr) << adopted.error;
  EXPECT_EQ(seen, std::vector<std::string>{options.key_namespace + "provider"});
  EXPECT_FALSE(adopted.session->found_marker());
  EXPECT_EQ(reply_text(raw({"GET", options.key_namespace + "provider"}).get()), "someone else's");
  WriteRequest request;
  request.mutations.push_back(Put{"k", "v"});
  EXPECT_TRUE(std::holds_alternative<Applied>(adopted.location->write(request, kNoDeadline)));
  EXPECT_EQ(reply_text(raw({"GET", options.key_namespace + "provider"}).get()), "someone else's");
  // A refusing hook aborts the open.
  const RedisStores aborted =
      open_redis_stores(options, test_clock(), [](RedisSession&) { return std::string("not now"); });
  EXPECT_EQ(aborted.session, nullptr);
  EXPECT_EQ(aborted.error, "not now");
  EXPECT_EQ(adopted.session->clear_namespace(), "");  // tests' cleanup: the foreign key too
}

TEST_F(RedisProvider, ListKeysAndTheKeyLayout) {
  put("k", "v");
  const RedisSession::KeyList listed = session().list_keys(1'000);
  EXPECT_EQ(listed.error, "");
  const std::vector<std::string>& keys = listed.keys;
  ASSERT_FALSE(keys.empty());
  for (const std::string& key : keys) {
    EXPECT_TRUE(is_provider_key(ns(), key)) << key;
  }
  EXPECT_FALSE(is_provider_key(ns(), ns() + "someone-elses"));
  EXPECT_FALSE(is_provider_key(ns(), ns() + "rec:"));
  EXPECT_FALSE(is_provider_key(ns(), "other:" + ns() + "idx"));
  EXPECT_NE(session().list_keys(1).error, "");  // more keys than allowed
}

TEST_F(RedisProvider, NamespaceIsEmptyAndClearNamespaceTouchOnlyTheNamespace) {
  RedisSession::Answer empty = session().namespace_is_empty();
  EXPECT_TRUE(empty.yes) << empty.error;
  put("k", "v");
  empty = session().namespace_is_empty();
  EXPECT_FALSE(empty.yes);
  EXPECT_EQ(empty.error, "");

  // A neighbour whose name starts with ours plus glob specials must survive.
  RedisStoreOptions neighbour_options = test_options(_url);
  neighbour_options.key_namespace = ns() + "*[x]?:";
  RedisStores neighbour = open_redis_stores(neighbour_options, test_clock());
  ASSERT_NE(neighbour.location, nullptr) << neighbour.error;
  WriteRequest request;
  request.mutations.push_back(Put{"k", "neighbour"});
  ASSERT_TRUE(std::holds_alternative<Applied>(neighbour.location->write(request, kNoDeadline)));
  EXPECT_EQ(neighbour.session->clear_namespace(), "");
  EXPECT_TRUE(std::holds_alternative<Found>(store().read("k", kNoDeadline))) << "clearing ns* must not glob";

  EXPECT_EQ(session().clear_namespace(), "");
  empty = session().namespace_is_empty();
  EXPECT_TRUE(empty.yes) << empty.error;
  EXPECT_TRUE(std::holds_alternative<Missing>(store().read("k", kNoDeadline)));
  put("k", "after clearing");  // the session still works
}

TEST_F(RedisProvider, CountersAreExactAtTheInt64Extremes) {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const WriteResult to_min = store().write(WriteRequest{{}, {Increment{"n", kMin, kMin, kMax}}}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Applied>(to_min));
  EXPECT_EQ(std::get<Applied>(to_min).outcomes.at(0).counter, kMin);
  const WriteResult below = store().write(WriteRequest{{}, {Increment{"n", -1, kMin, kMax}}}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Conflict>(below));
  EXPECT_EQ(std::get<Conflict>(below).reason, Conflict::Reason::kBoundExceeded);
  const WriteResult swing = store().write(WriteRequest{{}, {Increment{"n", kMax, kMin, kMax}}}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Applied>(swing));
  EXPECT_EQ(std::get<Applied>(swing).outcomes.at(0).counter, -1);
  const ReadResult read = store().read("n", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  EXPECT_EQ(std::get<Found>(read).value, "-1");

  put("padded", "007");
  const WriteResult padded = store().write(WriteRequest{{}, {Increment{"padded", 1, 0, 100}}}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Applied>(padded));
  EXPECT_EQ(std::get<Applied>(padded).outcomes.at(0).counter, 8);
}

TEST_F(RedisProvider, IncrementOfANonCounterIsInvalidArgumentAndChangesNothing) {
  const StoreVersion text = put("text", "not a number");
  const StoreVersion huge = put("huge", "9223372036854775808");
  for (const char* key : {"text", "huge"}) {
    const WriteResult result =
        store().write(WriteRequest{{}, {Put{"other", "x"}, Increment{key, 1, 0, 10}}}, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<StoreError>(result)) << key;
    EXPECT_EQ(std::get<StoreError>(result).kind, StoreErrorKind::kInvalidArgument);
    EXPECT_TRUE(std::holds_alternative<Missing>(store().read("other", kNoDeadline)));
  }
  EXPECT_EQ(std::get<Found>(store().read("text", kNoDeadline)).version, text);
  EXPECT_EQ(std::get<Found>(store().read("huge", kNoDeadline)).version, huge);
}

TEST_F(RedisProvider, ValuesOfTheFullSizeLimitRoundTrip) {
  Bytes value(kMaxValueBytes, 'x');
  value[12345] = '\0';
  put("big", value);
  const ReadResult read = store().read("big", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  EXPECT_EQ(std::get<Found>(read).value, value);
}

TEST_F(RedisProvider, ScanSkipsKeysCreatedAfterItsSnapshot) {
  put("k0", "v");
  put("k9", "v");
  const ScanPage page = first_page(1);
  ASSERT_EQ(page.entries.size(), 1U);
  ASSERT_TRUE(page.continuation.has_value());
  for (int i = 1; i < 9; ++i) {
    put("k" + std::to_string(i), "late");
  }
  const ScanResult rest = store().scan(ScanRequest{"k", "l", page.continuation, 10}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(rest));
  const auto& entries = std::get<ScanPage>(rest).entries;
  ASSERT_EQ(entries.size(), 1U);
  EXPECT_EQ(entries[0].key, "k9");
  EXPECT_FALSE(std::get<ScanPage>(rest).continuation.has_value());
}

}  // namespace
}  // namespace spotcheck::store::redis
