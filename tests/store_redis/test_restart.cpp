// redis-server restarted under the provider (same port, same data dir), with and without AOF:
// the provider reconnects, reloads its scripts after NOSCRIPT (a restart empties the script
// cache), and keeps working; with AOF every record survives, without persistence the store is
// empty and the provider claims the namespace again. A write in flight when the server dies is
// Indeterminate, one sent while it is down Unavailable, and no acknowledged write is lost across
// a clean AOF restart.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <limits>
#include <thread>

#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::redis {
namespace {

using testing::PrivateRedisServer;
using testing::test_clock;
using testing::test_options;
using testing::kNoDeadline;
using testing::must_put;

constexpr std::int64_t kScanTtlMs = 60'000;

#define SPOTCHECK_REQUIRE_SERVER(server)                                       \
  if (!(server).error().empty()) {                                             \
    if (testing::missing_redis_allowed()) {                                    \
      GTEST_SKIP() << (server).error() << " (SPOTCHECK_ALLOW_NO_REDIS=1)";     \
    }                                                                          \
    FAIL() << (server).error() << " (set SPOTCHECK_ALLOW_NO_REDIS=1 to skip)"; \
  }

RedisStores open_on(const PrivateRedisServer& server, const std::string& key_namespace = "") {
  RedisStoreOptions options = test_options(server.url(), kScanTtlMs);
  options.connect_timeout_ms = 500;
  options.command_timeout_ms = 2'000;
  if (!key_namespace.empty()) {
    options.key_namespace = key_namespace;
  }
  return open_redis_stores(options, test_clock());
}

// Scripts in the server's cache (INFO memory), asked on a connection of its own; -1 on failure.
long cached_scripts(const PrivateRedisServer& server) {
  redisContext* raw = redisConnect("127.0.0.1", server.port());
  if (raw == nullptr || raw->err != 0) {
    redisFree(raw);
    return -1;
  }
  auto* info = static_cast<redisReply*>(redisCommand(raw, "INFO memory"));
  long count = -1;
  if (info != nullptr && info->type == REDIS_REPLY_STRING) {
    const std::string text(info->str, info->len);
    const std::string field = "number_of_cached_scripts:";
    if (const auto at = text.find(field); at != std::string::npos) {
      count = std::stol(text.substr(at + field.size()));
    }
  }
  freeReplyObject(info);
  redisFree(raw);
  return count;
}

ScanPage first_page(LocationStore& store) {
  const ScanResult result = store.scan(ScanRequest{"", "", std::nullopt, 1}, kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<ScanPage>(result));
  return std::holds_alternative<ScanPage>(result) ? std::get<ScanPage>(result) : ScanPage{};
}

TEST(RedisRestart, WithAppendOnlyEveryRecordSurvivesAndTheProviderReconnectsAndReloadsItsScripts) {
  PrivateRedisServer server("", /*appendonly=*/true);
  SPOTCHECK_REQUIRE_SERVER(server);
  RedisStores stores = open_on(server);
  ASSERT_NE(stores.location, nullptr) << stores.error;
  const StoreVersion v1 = must_put(*stores.location, "k1", "one");
  must_put(*stores.location, "k2", "two");
  ASSERT_TRUE(std::holds_alternative<Stored>(stores.relocation->put(PayloadPut{"r", "payload", 0}, kNoDeadline)));
  const ScanPage page = first_page(*stores.location);
  ASSERT_TRUE(page.continuation.has_value());

  ASSERT_EQ(server.restart(/*appendonly=*/true), "");
  EXPECT_EQ(cached_scripts(server), 0) << "a restart empties the script cache";

  // The first call notices the closed connection, reconnects, gets NOSCRIPT and reloads.
  const ReadResult read = stores.location->read("k1", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  EXPECT_EQ(std::get<Found>(read).value, "one");
  EXPECT_EQ(std::get<Found>(read).version, v1);
  EXPECT_GT(cached_scripts(server), 0);
  // The sequence survived: a conditional write on the old version applies with a newer one.
  const WriteResult cas = stores.location->write(WriteRequest{{ExpectVersion{"k1", v1}}, {Put{"k1", "uno"}}}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Applied>(cas));
  EXPECT_GT(std::get<Applied>(cas).outcomes.at(0).version.value, v1.value);
  // The open scan and its secret survived: the continuation still works, at its snapshot.
  const ScanResult next = stores.location->scan(ScanRequest{"", "", page.continuation, 10}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(next));
  ASSERT_EQ(std::get<ScanPage>(next).entries.size(), 1U);
  EXPECT_EQ(std::get<ScanPage>(next).entries[0].value, "two");
  const GetResult payload = stores.relocation->get("r", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<PayloadFound>(payload));
  EXPECT_EQ(std::get<PayloadFound>(payload).payload, "payload");
  // The namespace still carries its marker: another client opens it.
  RedisStores second = open_on(server, stores.session->key_namespace());
  ASSERT_NE(second.location, nullptr) << second.error;
  EXPECT_TRUE(std::holds_alternative<Found>(second.location->read("k2", kNoDeadline)));
}

TEST(RedisRestart, WithoutPersistenceTheStoreIsEmptyAndTheProviderClaimsTheNamespaceAgain) {
  PrivateRedisServer server;
  SPOTCHECK_REQUIRE_SERVER(server);
  RedisStores stores = open_on(server);
  ASSERT_NE(stores.location, nullptr) << stores.error;
  must_put(*stores.location, "k0", "zero");
  must_put(*stores.location, "k1", "one");
  const StoreVersion v1 = must_put(*stores.location, "k1", "uno");
  const ScanPage page = first_page(*stores.location);
  ASSERT_TRUE(page.continuation.has_value());

  ASSERT_EQ(server.restart(/*appendonly=*/false), "");
  EXPECT_EQ(cached_scripts(server), 0);

  EXPECT_TRUE(std::holds_alternative<Missing>(stores.location->read("k1", kNoDeadline)));
  EXPECT_GT(cached_scripts(server), 0);
  const WriteResult stale = stores.location->write(WriteRequest{{ExpectVersion{"k1", v1}}, {Put{"k1", "x"}}}, kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<Conflict>(stale));
  // The sequence starts again: StoreVersions repeat after a store lost its data.
  const StoreVersion again = must_put(*stores.location, "k1", "new");
  EXPECT_LT(again.value, v1.value);
  EXPECT_TRUE(std::holds_alternative<ScanExpired>(
      stores.location->scan(ScanRequest{"", "", page.continuation, 10}, kNoDeadline)));
  // The provider marked the namespace again (it held no key): a new client may open it and shares
  // the scan secret the first client keeps using.
  RedisStores second = open_on(server, stores.session->key_namespace());
  ASSERT_NE(second.location, nullptr) << second.error;
  EXPECT_EQ(second.session->scan_secret(), stores.session->scan_secret());
  const ReadResult read = second.location->read("k1", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  EXPECT_EQ(std::get<Found>(read).value, "new");
}

TEST(RedisRestart, AWriteInFlightWhenTheServerDiesIsIndeterminateAndOneWhileItIsDownIsUnavailable) {
  PrivateRedisServer server;
  SPOTCHECK_REQUIRE_SERVER(server);
  RedisStores stores = open_on(server);
  ASSERT_NE(stores.location, nullptr) << stores.error;
  const StoreVersion v1 = must_put(*stores.location, "k", "one");

  // Frozen, the server leaves the request unread; killed, it never runs it.
  ASSERT_EQ(::kill(server.pid(), SIGSTOP), 0);
  WriteResult in_flight = StoreError{};
  std::thread writer([&] {
    in_flight = stores.location->write(WriteRequest{{ExpectVersion{"k", v1}}, {Put{"k", "two"}}}, kNoDeadline);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto killed_at = std::chrono::steady_clock::now();
  ASSERT_EQ(server.down(/*kill=*/true), "");
  writer.join();
  EXPECT_TRUE(std::holds_alternative<Indeterminate>(in_flight)) << "a write whose connection broke is never a success";
  EXPECT_LT(std::chrono::steady_clock::now() - killed_at, std::chrono::milliseconds(1'500))
      << "the broken connection ends the call, not the 2 s timeout";

  // While the server is down nothing can be sent: Unavailable, not Indeterminate.
  const WriteResult down_write = stores.location->write(WriteRequest{{}, {Put{"k", "three"}}}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<StoreError>(down_write));
  EXPECT_EQ(std::get<StoreError>(down_write).kind, StoreErrorKind::kUnavailable);
  const ReadResult down_read = stores.location->read("k", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<StoreError>(down_read));
  EXPECT_EQ(std::get<StoreError>(down_read).kind, StoreErrorKind::kUnavailable);

  ASSERT_EQ(server.up(/*appendonly=*/false), "");
  EXPECT_TRUE(std::holds_alternative<Missing>(stores.location->read("k", kNoDeadline)));
  EXPECT_TRUE(std::holds_alternative<Applied>(stores.location->write(WriteRequest{{}, {Put{"k", "four"}}}, kNoDeadline)));
}

// Tallies of a writer that increments one counter as fast as it can.
struct Tally {
  std::atomic<long> applied{0};
  std::atomic<long> indeterminate{0};
  std::atomic<long> unavailable{0};
  std::atomic<long> other{0};
};

void increment_until(LocationStore& store, const std::atomic<bool>& stop, Tally& tally) {
  // Bound: until `stop`; every call is bounded by the command timeout.
  while (!stop.load()) {
    const WriteResult result = store.write(WriteRequest{{}, {Increment{"counter", 1, 0, 1'000'000'000}}}, kNoDeadline);
    if (std::holds_alternative<Applied>(result)) {
      tally.applied.fetch_add(1);
    } else if (std::holds_alternative<Indeterminate>(result)) {
      tally.indeterminate.fetch_add(1);
    } else if (std::holds_alternative<StoreError>(result) &&
               std::get<StoreError>(result).kind == StoreErrorKind::kUnavailable) {
      tally.unavailable.fetch_add(1);
    } else {
      tally.other.fetch_add(1);
    }
  }
}

TEST(RedisRestart, NoAcknowledgedWriteIsLostAcrossACleanAppendOnlyRestart) {
  PrivateRedisServer server("", /*appendonly=*/true);
  SPOTCHECK_REQUIRE_SERVER(server);
  RedisStores stores = open_on(server);
  ASSERT_NE(stores.location, nullptr) << stores.error;
  RedisStores reader = open_on(server, stores.session->key_namespace());
  ASSERT_NE(reader.location, nullptr) << reader.error;

  Tally tally;
  std::atomic<bool> stop{false};
  std::thread writer([&] { increment_until(*stores.location, stop, tally); });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  const std::string restarted = server.restart(/*appendonly=*/true);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  stop.store(true);
  writer.join();
  ASSERT_EQ(restarted, "");

  const ReadResult read = reader.location->read("counter", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  const long value = std::stol(std::get<Found>(read).value);
  const std::string tallies = "applied " + std::to_string(tally.applied.load()) + ", indeterminate " +
                              std::to_string(tally.indeterminate.load()) + ", unavailable " +
                              std::to_string(tally.unavailable.load()) + ", counter " + std::to_string(value);
  std::cout << tallies << "\n";  // the figures in the test log
  // Every acknowledged increment is there; at most the indeterminate ones on top; none invented.
  EXPECT_GE(value, tally.applied.load()) << tallies;
  EXPECT_LE(value, tally.applied.load() + tally.indeterminate.load()) << tallies;
  EXPECT_GT(tally.indeterminate.load() + tally.unavailable.load(), 0) << "the restart was not felt: " << tallies;
  EXPECT_EQ(tally.other.load(), 0) << tallies;
  EXPECT_GT(tally.applied.load(), 0) << tallies;
}

}  // namespace
}  // namespace spotcheck::store::redis
