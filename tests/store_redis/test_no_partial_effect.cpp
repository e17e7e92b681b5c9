// No partial effect (docs/redis.md, "No partial effect"): a script that fails changes nothing.
// Every writing script (write, scan, relocation put, relocation delete) is made to fail through
// its ordinary error paths and through a key of the wrong type (or a corrupt counter) planted at
// each name it would write later in its run; a dump of the whole namespace (every key's type,
// serialized value and expiry) is byte for byte the same before and after.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <thread>

#include "tests/store_redis/namespace_dump.h"
#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::redis {
namespace {

using testing::dump_namespace;
using testing::NamespaceDump;
using testing::test_clock;
using testing::test_options;
using testing::kNoDeadline;
using testing::kRawTimeoutUs;

constexpr std::int64_t kLongScanTtlMs = 60'000;
constexpr std::int64_t kShortScanTtlMs = 300;

// A key of another type (or a wrong value) planted at `name` (a name under the namespace).
struct Plant {
  std::string name;
  std::vector<std::string> command;  // run after UNLINK name; "@" stands for the full key
  bool written = true;               // false: only read (after the script's first write)
};

Plant wrong_type(std::string name, std::string_view type) {
  if (type == "string") {
    return Plant{std::move(name), {"SET", "@", "planted"}};
  }
  if (type == "hash") {
    return Plant{std::move(name), {"HSET", "@", "planted", "1"}};
  }
  if (type == "list") {
    return Plant{std::move(name), {"RPUSH", "@", "planted"}};
  }
  return Plant{std::move(name), {"ZADD", "@", "0", "planted"}};
}

Plant string_value(std::string name, std::string value) { return Plant{std::move(name), {"SET", "@", std::move(value)}}; }

std::string sha(const Key& key) { return sha256_hex(key); }

void expect_internal_one_line(const StoreError& error) {
  EXPECT_EQ(error.kind, StoreErrorKind::kInternal) << error.message;
  EXPECT_FALSE(error.message.empty());
  EXPECT_EQ(error.message.find('\n'), std::string::npos) << error.message;
}

template <class Result>
void expect_internal_error(const Result& result, const std::string& what) {
  ASSERT_TRUE(std::holds_alternative<StoreError>(result)) << what;
  expect_internal_one_line(std::get<StoreError>(result));
}

class RedisNoPartialEffect : public ::testing::Test {
 protected:
  void SetUp() override {
    SPOTCHECK_REDIS_URL_OR_RETURN(url);
    RedisStoreOptions options = test_options(url, kLongScanTtlMs);
    _stores = open_redis_stores(options, test_clock());
    ASSERT_NE(_stores.location, nullptr) << _stores.error;
    options.scan_continuation_ttl_ms = kShortScanTtlMs;
    _short = open_redis_stores(options, test_clock());  // same namespace, scans that expire soon
    ASSERT_NE(_short.location, nullptr) << _short.error;
  }
  void TearDown() override {
    if (_stores.session) {
      EXPECT_EQ(_stores.session->clear_namespace(), "");
    }
  }

  LocationStore& store() { return *_stores.location; }
  const std::string& ns() { return _stores.session->key_namespace(); }

  ReplyPtr raw(const std::vector<std::string>& argv) {
    const std::vector<std::string_view> args(argv.begin(), argv.end());
    EXPECT_EQ(_stores.session->connection().ensure_connected(kRawTimeoutUs), "");
    CallResult result = _stores.session->connection().call(args, kRawTimeoutUs);
    EXPECT_EQ(result.failure, CallFailure::kNone) << result.message;
    return std::move(result.reply);
  }
  void plant(const Plant& p) {
    const std::string key = ns() + p.name;
    raw({"UNLINK", key});
    std::vector<std::string> command = p.command;
    std::replace(command.begin(), command.end(), std::string("@"), key);
    const ReplyPtr reply = raw(command);
    ASSERT_NE(reply, nullptr);
    ASSERT_NE(reply->type, REDIS_REPLY_ERROR) << reply_text(reply.get());
  }

  StoreVersion put(const Key& key, const Bytes& value) {
    const WriteResult result = store().write(WriteRequest{{}, {Put{key, value}}}, kNoDeadline);
    EXPECT_TRUE(std::holds_alternative<Applied>(result));
    return std::holds_alternative<Applied>(result) ? std::get<Applied>(result).outcomes.at(0).version : StoreVersion{};
  }
  // Opens a scan of everything (one entry per page), so replaced versions are kept.
  void open_scan(LocationStore& location) {
    const ScanResult page = location.scan(ScanRequest{"", "", std::nullopt, 1}, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<ScanPage>(page));
    ASSERT_TRUE(std::get<ScanPage>(page).continuation.has_value());
  }

  // Records a (a counter), b, c; a scan that may need every version of them; an expired scan
  // the next write removes first. So the write under test changes every structure there is.
  void write_state() {
    _va = put("a", "5");
    _vb = put("b", "x");
    put("c", "y");
    open_scan(store());
    // A scan that expired long ago (id 999999, snapshot 0), as an abandoned scan leaves it.
    raw({"ZADD", ns() + "scans", "1", "999999"});
    raw({"ZADD", ns() + "scansnap", "0", "999999"});
  }
  // The write under test: a condition, an increment, a replacement, a delete, a creation.
  WriteRequest write_under_test() const {
    return WriteRequest{{ExpectVersion{"a", _va}},
                        {Increment{"a", 1, 0, 100}, Put{"b", "x2"}, Delete{"c"}, Put{"d", "new"}}};
  }

  // Runs `op` and checks the namespace is byte for byte what it was.
  void expect_unchanged(const std::function<void()>& op, const std::string& what) {
    const NamespaceDump before = dump_namespace(*_stores.session);
    ASSERT_TRUE(before.error.empty()) << before.error;
    op();
    const NamespaceDump after = dump_namespace(*_stores.session);
    EXPECT_EQ(after, before) << what << ":\n" << testing::describe_difference(before, after);
  }
  void fresh_namespace() { ASSERT_EQ(_stores.session->clear_namespace(), ""); }

  RedisStores _stores;
  RedisStores _short;
  StoreVersion _va;
  StoreVersion _vb;
};

// The names the write under test writes: planting a wrong type at any of them must refuse it.
std::vector<Plant> write_plants(const StoreVersion& vb) {
  return {wrong_type("seq", "hash"),
          string_value("seq", "not-a-number"),
          string_value("seq", "9223372036854775806"),  // INCRBY would overflow
          wrong_type("scans", "string"),
          wrong_type("scansnap", "string"),
          wrong_type("idx", "string"),
          wrong_type("gcq", "string"),
          wrong_type("rec:" + sha("a"), "list"),
          wrong_type("rec:" + sha("c"), "list"),
          wrong_type("rec:" + sha("d"), "string"),
          Plant{"rec:" + sha("b"), {"HSET", "@", "v", "x", "ver", "not-a-version"}},
          wrong_type("hist:" + sha("b"), "string"),
          Plant{"hist:" + sha("d"), {"RPUSH", "@", "planted"}, false},
          wrong_type("old:" + sha("b") + ":" + std::to_string(vb.value), "string")};
}

TEST_F(RedisNoPartialEffect, TheWriteUnderTestChangesEveryNameThePlantsTake) {
  write_state();
  const NamespaceDump before = dump_namespace(*_stores.session);
  const WriteResult result = store().write(write_under_test(), kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Applied>(result));
  const NamespaceDump after = dump_namespace(*_stores.session);
  for (const Plant& p : write_plants(_vb)) {
    if (!p.written) {
      continue;
    }
    const std::string key = ns() + p.name;
    const auto was = before.keys.find(key);
    const auto is = after.keys.find(key);
    const bool changed = was == before.keys.end() ? is != after.keys.end()
                                                  : is == after.keys.end() || !(is->second == was->second);
    EXPECT_TRUE(changed) << p.name << " is not written by the write under test";
  }
}

TEST_F(RedisNoPartialEffect, WriteFailingOnAnyPlantedKeyChangesNothing) {
  write_state();
  const std::vector<Plant> plants = write_plants(_vb);
  for (std::size_t i = 0; i < plants.size(); ++i) {
    if (i > 0) {
      fresh_namespace();
      write_state();
    }
    SCOPED_TRACE(plants[i].name + " planted as " + plants[i].command.front() + " " + plants[i].command.back());
    plant(plants[i]);
    expect_unchanged([&] { expect_internal_error(store().write(write_under_test(), kNoDeadline), "write"); },
                     plants[i].name);
  }
}

TEST_F(RedisNoPartialEffect, WriteFailingOnItsOrdinaryErrorPathsChangesNothing) {
  write_state();
  put("e", "not a counter");
  const auto expect_conflict = [](const WriteResult& result, Conflict::Reason reason, std::size_t index) {
    ASSERT_TRUE(std::holds_alternative<Conflict>(result));
    EXPECT_EQ(std::get<Conflict>(result).reason, reason);
    EXPECT_EQ(std::get<Conflict>(result).index, index);
  };
  expect_unchanged([&] {
    const WriteRequest request{{ExpectVersion{"a", _va}, ExpectVersion{"b", StoreVersion{_vb.value + 100}}},
                               {Increment{"a", 1, 0, 100}, Put{"d", "new"}}};
    expect_conflict(store().write(request, kNoDeadline), Conflict::Reason::kVersionMismatch, 1);
  }, "version mismatch");
  expect_unchanged([&] {
    const WriteRequest request{{ExpectVersion{"a", _va}, ExpectAbsent{"b"}}, {Put{"d", "new"}}};
    expect_conflict(store().write(request, kNoDeadline), Conflict::Reason::kVersionMismatch, 1);
  }, "expected absent");
  expect_unchanged([&] {
    const WriteRequest request{{}, {Increment{"a", 1, 0, 100}, Put{"d", "new"}, Increment{"f", 5, 0, 3}}};
    expect_conflict(store().write(request, kNoDeadline), Conflict::Reason::kBoundExceeded, 2);
  }, "bound exceeded");
  expect_unchanged([&] {
    const WriteResult result = store().write(WriteRequest{{}, {Increment{"a", 1, 0, 100}, Increment{"e", 1, 0, 9}}}, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<StoreError>(result));
    EXPECT_EQ(std::get<StoreError>(result).kind, StoreErrorKind::kInvalidArgument);
  }, "non-decimal counter");
  expect_unchanged([&] {
    const WriteResult result = store().write(WriteRequest{{}, {Put{"d", "x"}, Delete{"d"}}}, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<StoreError>(result));
    EXPECT_EQ(std::get<StoreError>(result).kind, StoreErrorKind::kInvalidArgument);
  }, "invalid argument");
}

TEST_F(RedisNoPartialEffect, HistoryCollectionLeavesAKeptVersionOfTheWrongTypeAlone) {
  put("e", "one");
  put("f", "one");
  open_scan(*_short.location);
  put("e", "two");  // the version "one" is kept for the scan
  std::this_thread::sleep_for(std::chrono::milliseconds(kShortScanTtlMs + 50));
  ReplyPtr kept = raw({"ZRANGE", ns() + "hist:" + sha("e"), "0", "-1"});
  ASSERT_EQ(kept->elements, 1U);
  const std::string old_name = "old:" + sha("e") + ":" + std::string(reply_text(kept->element[0]));
  plant(wrong_type(old_name, "string"));
  // The scan expired: the next write collects e's history, finds a string where a kept version
  // should be, and leaves it (and e's history) alone instead of failing after its mutations.
  EXPECT_TRUE(std::holds_alternative<Applied>(store().write(WriteRequest{{}, {Put{"g", "x"}}}, kNoDeadline)));
  EXPECT_EQ(reply_text(raw({"GET", ns() + old_name}).get()), "planted");
  EXPECT_EQ(raw({"ZCARD", ns() + "hist:" + sha("e")})->integer, 1);
  EXPECT_TRUE(std::holds_alternative<Applied>(store().write(WriteRequest{{}, {Put{"e", "three"}}}, kNoDeadline)));
}

// A scan's first page over a namespace where a scan is open and c was deleted meanwhile (so
// the walk reads c's kept version): planting at any name the scan reads or writes refuses it.
TEST_F(RedisNoPartialEffect, ScanFailingOnAnyPlantedKeyChangesNothing) {
  const auto scan_state = [&] {
    put("a", "1");
    put("b", "2");
    const StoreVersion vc = put("c", "3");
    open_scan(store());
    EXPECT_TRUE(std::holds_alternative<Applied>(store().write(WriteRequest{{}, {Delete{"c"}}}, kNoDeadline)));
    return vc;
  };
  StoreVersion vc = scan_state();
  const std::vector<Plant> plants = {wrong_type("scanseq", "hash"),
                                     string_value("scanseq", "not-a-number"),
                                     wrong_type("seq", "hash"),
                                     string_value("seq", "not-a-number"),
                                     wrong_type("scans", "string"),
                                     wrong_type("scansnap", "string"),
                                     wrong_type("idx", "string"),
                                     wrong_type("gcq", "string"),
                                     wrong_type("rec:" + sha("b"), "string"),
                                     wrong_type("hist:" + sha("c"), "string"),
                                     wrong_type("old:" + sha("c") + ":" + std::to_string(vc.value), "list")};
  for (std::size_t i = 0; i < plants.size(); ++i) {
    if (i > 0) {
      fresh_namespace();
      vc = scan_state();
    }
    SCOPED_TRACE(plants[i].name + " planted as " + plants[i].command.front() + " " + plants[i].command.back());
    plant(plants[i]);
    expect_unchanged([&] {
      expect_internal_error(store().scan(ScanRequest{"", "", std::nullopt, 1000}, kNoDeadline), "scan");
    }, plants[i].name);
  }
}

TEST_F(RedisNoPartialEffect, RelocationPutAndDeleteFailingChangeNothing) {
  RelocationStore& relocation = *_stores.relocation;
  ASSERT_TRUE(std::holds_alternative<Stored>(relocation.put(PayloadPut{"r", "one", 60'000}, kNoDeadline)));
  ASSERT_TRUE(std::holds_alternative<Stored>(relocation.put(PayloadPut{"s", "kept", 0}, kNoDeadline)));
  expect_unchanged([&] {
    EXPECT_TRUE(std::holds_alternative<PayloadConflict>(relocation.put(PayloadPut{"r", "two", 60'000}, kNoDeadline)));
  }, "payload conflict");
  expect_unchanged([&] {
    const PutResult result = relocation.put(PayloadPut{"t", "x", -1}, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<StoreError>(result));
    EXPECT_EQ(std::get<StoreError>(result).kind, StoreErrorKind::kInvalidArgument);
  }, "negative retention");
  expect_unchanged([&] {
    const DeleteResult result = relocation.remove("", kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<StoreError>(result));
    EXPECT_EQ(std::get<StoreError>(result).kind, StoreErrorKind::kInvalidArgument);
  }, "empty reference");
  for (const std::string type : {"hash", "list", "zset"}) {
    SCOPED_TRACE(type);
    plant(wrong_type("reloc:" + sha("r"), type));
    expect_unchanged([&] { expect_internal_error(relocation.put(PayloadPut{"r", "one", 60'000}, kNoDeadline), "put"); },
                     "put onto a " + type);
    expect_unchanged([&] { expect_internal_error(relocation.remove("r", kNoDeadline), "remove"); },
                     "remove of a " + type);
    expect_internal_error(relocation.get("r", kNoDeadline), "get");
  }
}

}  // namespace
}  // namespace spotcheck::store::redis
