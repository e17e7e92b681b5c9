// The §10 hazard for real: a write held by the faulty proxy past the client's command timeout is
// forwarded afterwards, so the server applies it after the caller got Indeterminate (and after
// its first re-read). A conditional write that a later write superseded fails its condition on
// arrival and changes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <limits>

#include "tests/store_redis/faulty_proxy.h"
#include "tests/store_redis/namespace_dump.h"
#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::redis {
namespace {

using testing::FaultyProxy;
using testing::test_clock;
using testing::test_options;
using testing::kNoDeadline;

// The client gives up after kTimeout; the proxy forwards the request kHold after receiving it.
constexpr std::chrono::milliseconds kTimeout{200};
constexpr std::chrono::milliseconds kHold{1'500};
constexpr std::chrono::milliseconds kLandingLimit{5'000};

WriteRequest conditional_put(const Key& key, const Bytes& value, StoreVersion expect) {
  return WriteRequest{{ExpectVersion{key, expect}}, {Put{key, value}}};
}

StoreVersion version_of(const WriteResult& result) {
  EXPECT_TRUE(std::holds_alternative<Applied>(result));
  return std::holds_alternative<Applied>(result) ? std::get<Applied>(result).outcomes.at(0).version : StoreVersion{};
}

Found found(const ReadResult& result) {
  EXPECT_TRUE(std::holds_alternative<Found>(result));
  return std::holds_alternative<Found>(result) ? std::get<Found>(result) : Found{};
}

class RedisLateWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    SPOTCHECK_REDIS_URL_OR_RETURN(url);
    const RedisUrlParse parsed = parse_redis_url(url);
    ASSERT_TRUE(parsed.url.has_value());
    if (!parsed.url->password.empty() || parsed.url->host != "127.0.0.1") {
      GTEST_SKIP() << "the proxy test needs the fixture's loopback server without a password";
    }
    _proxy = std::make_unique<FaultyProxy>(parsed.url->port);
    ASSERT_TRUE(_proxy->error().empty()) << _proxy->error();
    // Client A goes through the proxy with a short timeout; B talks to the server directly.
    RedisStoreOptions a = test_options(_proxy->url());
    a.command_timeout_ms = kTimeout.count();
    _a = open_redis_stores(a, test_clock());
    ASSERT_NE(_a.location, nullptr) << _a.error;
    RedisStoreOptions b = test_options(url);
    b.key_namespace = a.key_namespace;
    _b = open_redis_stores(b, test_clock());
    ASSERT_NE(_b.location, nullptr) << _b.error;
  }
  void TearDown() override {
    if (_b.session) {
      EXPECT_EQ(_b.session->clear_namespace(), "");
    }
  }

  // A's write held past its timeout: Indeterminate, after about the timeout, not the hold.
  void expect_held_write_indeterminate(const WriteRequest& request) {
    _proxy->delay_requests(kHold);
    const auto started = std::chrono::steady_clock::now();
    const WriteResult held = _a.location->write(request, kNoDeadline);
    const auto waited = std::chrono::steady_clock::now() - started;
    _proxy->delay_requests(std::chrono::milliseconds(0));
    EXPECT_TRUE(std::holds_alternative<Indeterminate>(held));
    EXPECT_LT(waited, kHold);
    EXPECT_EQ(_proxy->orphan_replies(), 0) << "the held write landed before the test could re-read";
  }

  std::unique_ptr<FaultyProxy> _proxy;
  RedisStores _a;
  RedisStores _b;
};

TEST_F(RedisLateWrite, AWriteHeldPastTheTimeoutIsIndeterminateThenLandsAfterTheReRead) {
  const StoreVersion v1 = version_of(_a.location->write(WriteRequest{{}, {Put{"k", "one"}}}, kNoDeadline));
  expect_held_write_indeterminate(conditional_put("k", "two", v1));

  // The caller re-reads (a new connection through the proxy, no longer delayed): not applied yet.
  const Found before = found(_a.location->read("k", kNoDeadline));
  EXPECT_EQ(before.value, "one");
  EXPECT_EQ(before.version, v1);
  EXPECT_EQ(_proxy->orphan_replies(), 0) << "the held write landed before the re-read finished";

  // The held request reaches the server after all, and the server runs it.
  ASSERT_TRUE(_proxy->wait_for_orphan_replies(1, kLandingLimit));
  EXPECT_EQ(_proxy->held_forwarded(), 1);
  const Found after = found(_a.location->read("k", kNoDeadline));
  EXPECT_EQ(after.value, "two");
  EXPECT_GT(after.version.value, v1.value);
}

TEST_F(RedisLateWrite, AHeldConditionalWriteSupersededByALaterWriteChangesNothingWhenItLands) {
  const StoreVersion v1 = version_of(_a.location->write(WriteRequest{{}, {Put{"k", "one"}}}, kNoDeadline));
  expect_held_write_indeterminate(conditional_put("k", "from-a", v1));

  // Another client writes on the version A's held write expects.
  const StoreVersion v2 = version_of(_b.location->write(conditional_put("k", "from-b", v1), kNoDeadline));
  EXPECT_GT(v2.value, v1.value);
  const testing::NamespaceDump superseded = testing::dump_namespace(*_b.session);
  ASSERT_TRUE(superseded.error.empty()) << superseded.error;

  // A's write arrives and is executed: its condition fails, nothing changes.
  ASSERT_TRUE(_proxy->wait_for_orphan_replies(1, kLandingLimit));
  const testing::NamespaceDump landed = testing::dump_namespace(*_b.session);
  EXPECT_EQ(landed, superseded) << testing::describe_difference(superseded, landed);
  const Found after = found(_b.location->read("k", kNoDeadline));
  EXPECT_EQ(after.value, "from-b");
  EXPECT_EQ(after.version, v2);
}

}  // namespace
}  // namespace spotcheck::store::redis
