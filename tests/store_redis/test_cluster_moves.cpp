// A namespace's slot served elsewhere (docs/redis.md, "Redis Cluster"): a session talking to a
// node that does not own the slot follows MOVED (fixture cluster); a slot really resharded to
// another node (private cluster) takes the namespace along, and the session follows it there,
// reloads its scripts and carries on: records, counter and an open scan continuation intact.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/store_redis/cluster_node.h"
#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::redis {
namespace {

using testing::connect_node;
using testing::keys_on_node;
using testing::node_command;
using testing::node_port;
using testing::test_clock;
using testing::test_options;
using testing::unique_tagged_namespace;
using testing::cluster_options;
using testing::kNoDeadline;


// Scan continuations stay valid for 30 s: the resharding between two pages must not expire one.
constexpr std::int64_t kScanTtlMs = 30'000;

TEST(RedisCluster, AMovedReplyIsFollowedToTheNodeOwningTheSlot) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  RedisStores stores = open_redis_stores(cluster_options(urls[0], unique_tagged_namespace(), kScanTtlMs), test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;
  const int owner_port = stores.session->url().port;
  int redirected = 0;
  for (const std::string& url : urls) {
    const int port = node_port(url);
    if (port == owner_port) {
      continue;
    }
    SCOPED_TRACE(url);
    // As if the slot had moved away from the node the session talks to: the next script call gets
    // MOVED (nothing executed there), follows it and applies once.
    stores.session->connection().retarget("127.0.0.1", port);
    const WriteResult written = stores.location->write(WriteRequest{{}, {Increment{"n", 1, 0, 9}}}, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<Applied>(written));
    EXPECT_EQ(stores.session->url().port, owner_port);
    // A plain command too.
    stores.session->connection().retarget("127.0.0.1", port);
    const std::string marker = marker_key(stores.session->key_namespace());
    const std::array<std::string_view, 2> get{"GET", marker};
    const CallResult got = stores.session->command(get);
    ASSERT_EQ(got.failure, CallFailure::kNone) << got.message;
    EXPECT_EQ(reply_text(got.reply.get()), "spotcheck-store-redis/1");
    EXPECT_EQ(stores.session->url().port, owner_port);
    ++redirected;
  }
  EXPECT_EQ(redirected, 2);
  const ReadResult counter = stores.location->read("n", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(counter));
  EXPECT_EQ(std::get<Found>(counter).value, "2") << "each increment applied exactly once";
  EXPECT_EQ(stores.session->clear_namespace(), "");
}

// The node's cluster id (CLUSTER MYID).
std::string node_id(redisContext* node) {
  const ReplyPtr id = node_command(node, {"CLUSTER", "MYID"});
  EXPECT_TRUE(id != nullptr && id->type == REDIS_REPLY_STRING);
  return id != nullptr ? std::string(reply_text(id.get())) : std::string();
}

// Expects a +OK status reply.
void expect_ok(const ReplyPtr& reply, const std::string& what) {
  ASSERT_NE(reply, nullptr) << what;
  EXPECT_EQ(reply_text(reply.get()), "OK") << what;
}

// Reshards `slot` from the node of `from` to the node of `to` as redis-cli --cluster reshard does:
// IMPORTING/MIGRATING, MIGRATE every key, then SETSLOT NODE on every node.
void move_slot(long long slot, const std::string& from, const std::string& to, const std::vector<std::string>& urls) {
  testing::NodeContext source = connect_node(from);
  testing::NodeContext target = connect_node(to);
  const std::string slot_text = std::to_string(slot);
  const std::string target_id = node_id(target.get());
  expect_ok(node_command(target.get(), {"CLUSTER", "SETSLOT", slot_text, "IMPORTING", node_id(source.get())}),
            "IMPORTING");
  expect_ok(node_command(source.get(), {"CLUSTER", "SETSLOT", slot_text, "MIGRATING", target_id}), "MIGRATING");
  // Bound: 100 keys a round; a test namespace holds a few dozen.
  for (int round = 0; round < 100; ++round) {
    const ReplyPtr keys = node_command(source.get(), {"CLUSTER", "GETKEYSINSLOT", slot_text, "100"});
    ASSERT_TRUE(keys != nullptr && keys->type == REDIS_REPLY_ARRAY);
    if (keys->elements == 0) {
      break;
    }
    std::vector<std::string> migrate{"MIGRATE", "127.0.0.1", std::to_string(node_port(to)), "", "0", "5000", "KEYS"};
    for (std::size_t i = 0; i < keys->elements; ++i) {
      migrate.emplace_back(reply_text(keys->element[i]));
    }
    expect_ok(node_command(source.get(), migrate), "MIGRATE");
  }
  for (const std::string& url : urls) {
    testing::NodeContext node = connect_node(url);
    expect_ok(node_command(node.get(), {"CLUSTER", "SETSLOT", slot_text, "NODE", target_id}), "SETSLOT NODE " + url);
  }
}

TEST(RedisCluster, ASlotReshardedToAnotherNodeTakesTheNamespaceAlongAndTheSessionFollows) {
  testing::PrivateRedisCluster cluster;  // its layout changes below: not the fixture's cluster
  if (!cluster.error().empty() && testing::missing_redis_allowed()) {
    GTEST_SKIP() << cluster.error();
  }
  ASSERT_EQ(cluster.error(), "");
  const std::vector<std::string>& urls = cluster.urls();
  const std::string key_namespace = unique_tagged_namespace();
  RedisStores stores = open_redis_stores(cluster_options(urls[0], key_namespace, kScanTtlMs), test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;
  LocationStore& location = *stores.location;
  ASSERT_TRUE(std::holds_alternative<Applied>(
      location.write(WriteRequest{{}, {Put{"a", "1"}, Put{"b", "2"}, Increment{"n", 1, 0, 9}}}, kNoDeadline)));
  const ScanResult first = location.scan(ScanRequest{"", "", std::nullopt, 1}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(first));
  ASSERT_TRUE(std::get<ScanPage>(first).continuation.has_value());

  const std::string source = "redis://127.0.0.1:" + std::to_string(stores.session->url().port);
  const std::string target = node_port(urls[0]) == stores.session->url().port ? urls[1] : urls[0];
  const std::size_t keys_before = keys_on_node(source, key_namespace);
  ASSERT_GE(keys_before, 8U);
  testing::NodeContext owner = connect_node(source);
  const ReplyPtr slot = node_command(owner.get(), {"CLUSTER", "KEYSLOT", sequence_key(key_namespace)});
  ASSERT_TRUE(slot != nullptr && slot->type == REDIS_REPLY_INTEGER);
  move_slot(slot->integer, source, target, urls);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  EXPECT_EQ(keys_on_node(source, key_namespace), 0U);
  EXPECT_EQ(keys_on_node(target, key_namespace), keys_before);

  // The session still talks to the old owner: MOVED, then NOSCRIPT (the new owner never loaded the
  // scripts; the marker came along, so nothing is re-claimed), then the write applies once.
  ASSERT_TRUE(std::holds_alternative<Applied>(
      location.write(WriteRequest{{}, {Put{"a", "3"}, Put{"b", "4"}, Increment{"n", 1, 0, 9}}}, kNoDeadline)));
  EXPECT_EQ(stores.session->url().port, node_port(target));
  const ReadResult a = location.read("a", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(a));
  EXPECT_EQ(std::get<Found>(a).value, "3");
  const ReadResult n = location.read("n", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(n));
  EXPECT_EQ(std::get<Found>(n).value, "2");
  // The scan opened on the old owner goes on at its snapshot (b as it was then: its history came
  // along; the continuation's MAC checks under the same secret).
  const ScanResult second = location.scan(ScanRequest{"", "", std::get<ScanPage>(first).continuation, 1}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(second));
  ASSERT_EQ(std::get<ScanPage>(second).entries.size(), 1U);
  EXPECT_EQ(std::get<ScanPage>(second).entries[0].key, "b");
  EXPECT_EQ(std::get<ScanPage>(second).entries[0].value, "2");
  EXPECT_EQ(keys_on_node(source, key_namespace), 0U) << "nothing was written on the old owner";
}

}  // namespace
}  // namespace spotcheck::store::redis
