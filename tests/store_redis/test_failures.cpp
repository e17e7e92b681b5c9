// Connection failures and their SPI meaning: malformed URL, unreachable server, wrong password,
// a paused server (SIGSTOP) and lost replies -> Indeterminate, reconnect on the next call.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <limits>
#include <thread>

#include "tests/store_redis/redis_test_env.h"
#include "tests/store_redis/faulty_proxy.h"

namespace spotcheck::store::redis {
namespace {

using testing::PrivateRedisServer;
using testing::FaultyProxy;
using testing::test_clock;
using testing::test_options;
using testing::kNoDeadline;
using testing::must_put;


#define SPOTCHECK_REQUIRE_SERVER(server)                                                         \
  if (!(server).error().empty()) {                                                               \
    if (testing::missing_redis_allowed()) {                                                      \
      GTEST_SKIP() << (server).error() << " (SPOTCHECK_ALLOW_NO_REDIS=1)";                       \
    }                                                                                            \
    FAIL() << (server).error() << " (set SPOTCHECK_ALLOW_NO_REDIS=1 to skip)";                   \
  }

WriteRequest put_request(const Key& key, const Bytes& value, std::optional<StoreVersion> expect = std::nullopt) {
  WriteRequest request;
  if (expect) {
    request.conditions.push_back(ExpectVersion{key, *expect});
  }
  request.mutations.push_back(Put{key, value});
  return request;
}

void expect_one_line(const std::string& error) {
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

int closed_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  EXPECT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ::close(fd);  // bound, never listened: connecting is refused
  return ntohs(address.sin_port);
}

TEST(RedisFailures, MalformedUrlIsAOneLineError) {
  for (const char* url : {"http://127.0.0.1:6379", "redis://", "redis://127.0.0.1:port", "redis://127.0.0.1:6379/db"}) {
    RedisStoreOptions options;
    options.url = url;
    const RedisStores stores = open_redis_stores(options, test_clock());
    EXPECT_EQ(stores.location, nullptr);
    expect_one_line(stores.error);
    EXPECT_NE(stores.error.find("malformed redis URL"), std::string::npos) << stores.error;
  }
}

TEST(RedisFailures, UnreachableServerIsAOneLineError) {
  const int port = closed_loopback_port();
  RedisStoreOptions options;
  options.url = "redis://127.0.0.1:" + std::to_string(port);
  const auto started = std::chrono::steady_clock::now();
  const RedisStores stores = open_redis_stores(options, test_clock());
  EXPECT_EQ(stores.session, nullptr);
  expect_one_line(stores.error);
  EXPECT_NE(stores.error.find("cannot connect to redis://127.0.0.1:" + std::to_string(port)), std::string::npos)
      << stores.error;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST(RedisFailures, WrongOrMissingPasswordIsAOneLineErrorWithoutThePassword) {
  PrivateRedisServer server("right-password");
  SPOTCHECK_REQUIRE_SERVER(server);
  const std::string host_port = "127.0.0.1:" + std::to_string(server.port());

  RedisStoreOptions wrong = test_options("redis://:wrong-password@" + host_port);
  const RedisStores refused = open_redis_stores(wrong, test_clock());
  EXPECT_EQ(refused.session, nullptr);
  expect_one_line(refused.error);
  EXPECT_NE(refused.error.find("authentication"), std::string::npos) << refused.error;
  EXPECT_NE(refused.error.find("WRONGPASS"), std::string::npos) << refused.error;
  EXPECT_EQ(refused.error.find("wrong-password"), std::string::npos) << refused.error;

  const RedisStores anonymous = open_redis_stores(test_options("redis://" + host_port), test_clock());
  EXPECT_EQ(anonymous.session, nullptr);
  expect_one_line(anonymous.error);
  EXPECT_NE(anonymous.error.find("NOAUTH"), std::string::npos) << anonymous.error;

  // Both AUTH forms work with the right password: AUTH pass and AUTH user pass.
  for (const std::string& url : {"redis://:right-password@" + host_port, "redis://default:right-password@" + host_port}) {
    RedisStores stores = open_redis_stores(test_options(url), test_clock());
    ASSERT_NE(stores.location, nullptr) << stores.error;
    must_put(*stores.location, "k", "v");
  }
}

TEST(RedisFailures, DatabaseIsSelectedAndABadOneIsAOneLineError) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  const RedisStores bad = open_redis_stores(test_options(url + "/99999"), test_clock());
  EXPECT_EQ(bad.session, nullptr);
  expect_one_line(bad.error);
  EXPECT_NE(bad.error.find("SELECT 99999"), std::string::npos) << bad.error;

  RedisStores stores = open_redis_stores(test_options(url + "/5"), test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;
  must_put(*stores.location, "k", "v");
  // The record is in database 5, not 0.
  const std::string record = record_key(stores.session->key_namespace(), "k");
  redisContext* raw = redisConnect(stores.session->url().host.c_str(), stores.session->url().port);
  ASSERT_TRUE(raw != nullptr && raw->err == 0);
  auto* in_db0 = static_cast<redisReply*>(redisCommand(raw, "EXISTS %b", record.data(), record.size()));
  ASSERT_NE(in_db0, nullptr);
  EXPECT_EQ(in_db0->integer, 0);
  freeReplyObject(in_db0);
  freeReplyObject(redisCommand(raw, "SELECT 5"));
  auto* in_db5 = static_cast<redisReply*>(redisCommand(raw, "EXISTS %b", record.data(), record.size()));
  ASSERT_NE(in_db5, nullptr);
  EXPECT_EQ(in_db5->integer, 1);
  freeReplyObject(in_db5);
  redisFree(raw);
  EXPECT_TRUE(stores.session->clear_namespace().empty());
}

TEST(RedisFailures, PausedServerMakesWritesIndeterminateAndReadsTimeOutThenReconnects) {
  PrivateRedisServer server;
  SPOTCHECK_REQUIRE_SERVER(server);
  RedisStoreOptions options = test_options(server.url());
  options.command_timeout_ms = 300;
  options.connect_timeout_ms = 300;
  RedisStores stores = open_redis_stores(options, test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;
  const StoreVersion v1 = must_put(*stores.location, "k", "one");

  ASSERT_EQ(::kill(server.pid(), SIGSTOP), 0);
  const auto started = std::chrono::steady_clock::now();
  const WriteResult paused_write = stores.location->write(put_request("k", "two", v1), kNoDeadline);
  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_TRUE(std::holds_alternative<Indeterminate>(paused_write));
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  EXPECT_LT(waited, std::chrono::seconds(3));

  const ReadResult paused_read = stores.location->read("k", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<StoreError>(paused_read));
  EXPECT_EQ(std::get<StoreError>(paused_read).kind, StoreErrorKind::kTimeout);

  const PutResult paused_put = stores.relocation->put(PayloadPut{"r", "payload", 60'000}, kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<Indeterminate>(paused_put));

  // A deadline that already passed: nothing is sent, nothing waits.
  const ReadResult late = stores.location->read("k", test_clock().now_us() - 1);
  ASSERT_TRUE(std::holds_alternative<StoreError>(late));
  EXPECT_EQ(std::get<StoreError>(late).kind, StoreErrorKind::kTimeout);
  const WriteResult late_write = stores.location->write(put_request("k", "three"), test_clock().now_us() - 1);
  ASSERT_TRUE(std::holds_alternative<StoreError>(late_write));

  ASSERT_EQ(::kill(server.pid(), SIGCONT), 0);
  // The next call reconnects; the re-read tells whether the indeterminate write applied.
  const ReadResult after = stores.location->read("k", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(after));
  const Found& found = std::get<Found>(after);
  if (found.value == "two") {
    EXPECT_NE(found.version, v1);
  } else {
    EXPECT_EQ(found.value, "one");
    EXPECT_EQ(found.version, v1);
  }
  EXPECT_FALSE(std::holds_alternative<StoreError>(stores.relocation->get("r", kNoDeadline)));
}

TEST(RedisFailures, LostReplyAfterApplyIsIndeterminateAndTheReReadShowsTheWrite) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  const RedisUrlParse parsed = parse_redis_url(url);
  ASSERT_TRUE(parsed.url.has_value());
  if (!parsed.url->password.empty() || parsed.url->host != "127.0.0.1") {
    GTEST_SKIP() << "the proxy test needs the fixture's loopback server without a password";
  }
  FaultyProxy proxy(parsed.url->port);
  ASSERT_TRUE(proxy.error().empty()) << proxy.error();
  RedisStoreOptions options = test_options(proxy.url());
  options.command_timeout_ms = 300;
  RedisStores stores = open_redis_stores(options, test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;
  const StoreVersion v1 = must_put(*stores.location, "k", "one");

  proxy.drop_replies(true);
  const WriteResult lost = stores.location->write(put_request("k", "two", v1), kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<Indeterminate>(lost));
  const DeleteResult lost_delete = stores.relocation->remove("r", kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<Indeterminate>(lost_delete));
  proxy.drop_replies(false);

  // The server applied it: the re-read (on a new connection) shows the new value and version.
  const ReadResult after = stores.location->read("k", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(after));
  EXPECT_EQ(std::get<Found>(after).value, "two");
  EXPECT_NE(std::get<Found>(after).version, v1);

  // A connection cut right after the request is also Indeterminate, never a guess.
  proxy.cut_after_request(true);
  const WriteResult cut = stores.location->write(put_request("k", "three"), kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<Indeterminate>(cut));
  proxy.cut_after_request(false);
  const ReadResult final_read = stores.location->read("k", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(final_read));
  EXPECT_TRUE(std::get<Found>(final_read).value == "two" || std::get<Found>(final_read).value == "three");
  EXPECT_TRUE(stores.session->clear_namespace().empty());
}

TEST(RedisFailures, ConnectionClosedByTheServerWhileIdleIsReopenedBeforeSending) {
  PrivateRedisServer server;  // CLIENT KILL below must not hit other tests' connections
  SPOTCHECK_REQUIRE_SERVER(server);
  RedisStores stores = open_redis_stores(test_options(server.url()), test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;
  const StoreVersion v1 = must_put(*stores.location, "k", "one");
  // Another client kills every normal connection but its own (the provider's is one).
  redisContext* raw = redisConnect(stores.session->url().host.c_str(), stores.session->url().port);
  ASSERT_TRUE(raw != nullptr && raw->err == 0);
  auto* killed = static_cast<redisReply*>(redisCommand(raw, "CLIENT KILL TYPE normal SKIPME yes"));
  ASSERT_NE(killed, nullptr);
  EXPECT_GE(killed->integer, 1);
  freeReplyObject(killed);
  redisFree(raw);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // The provider notices the closed connection before sending and reconnects: no Indeterminate.
  const WriteResult result = stores.location->write(put_request("k", "two", v1), kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<Applied>(result));
}

TEST(RedisFailures, FlushedScriptCacheIsReloadedOnNoscript) {
  SPOTCHECK_REDIS_URL_OR_RETURN(url);
  RedisStores stores = open_redis_stores(test_options(url), test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;
  const std::array<std::string_view, 2> flush{"SCRIPT", "FLUSH"};
  const CallResult flushed = stores.session->connection().call(flush, 1'000'000);
  ASSERT_EQ(flushed.failure, CallFailure::kNone) << flushed.message;
  must_put(*stores.location, "k", "v");
  const ReadResult read = stores.location->read("k", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  EXPECT_EQ(std::get<Found>(read).value, "v");
  EXPECT_TRUE(stores.session->clear_namespace().empty());
}

}  // namespace
}  // namespace spotcheck::store::redis
