// The provider on a three-node Redis Cluster (docs/redis.md, "Redis Cluster"): the fixture is a
// real three-master cluster; a namespace without a hash tag is refused with one clear line,
// whichever node the URL names; a tagged namespace opened through any node lands on the node
// owning its slot, every key in that one slot; every script refuses a key outside the namespace.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <array>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "impl/store/redis/cluster_route.h"
#include "impl/store/redis/key_layout.h"
#include "impl/store/redis/reply_parse.h"
#include "tests/store_redis/cluster_node.h"
#include "tests/store_redis/namespace_dump.h"
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

constexpr long long kLastSlot = 16'383;

TEST(RedisCluster, TheFixtureIsThreeMastersServingEverySlotAndNamespacesSpreadOverThem) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  ASSERT_EQ(urls.size(), 3U);
  std::set<int> ports;
  for (const std::string& url : urls) {
    ports.insert(node_port(url));
  }
  ASSERT_EQ(ports.size(), 3U) << "three distinct nodes";
  for (const std::string& url : urls) {
    SCOPED_TRACE(url);
    // Every node sees the same layout: three ranges, one per node, together 0..16383 without a gap.
    const std::set<testing::SlotRange> ranges = testing::slot_ranges(url);
    ASSERT_EQ(ranges.size(), 3U);
    long long next = 0;
    std::set<int> masters;
    for (const testing::SlotRange& range : ranges) {
      EXPECT_EQ(range.first, next);
      next = range.last + 1;
      masters.insert(range.master_port);
    }
    EXPECT_EQ(next, kLastSlot + 1);
    EXPECT_EQ(masters, ports);
  }
  // Fresh namespaces land on every node (bounded: 64 namespaces miss a third of the slots with
  // probability (2/3)^64).
  std::set<int> owners;
  for (int i = 0; i < 64 && owners.size() < 3; ++i) {
    const RedisStores stores = open_redis_stores(cluster_options(urls[0], unique_tagged_namespace()), test_clock());
    ASSERT_NE(stores.session, nullptr) << stores.error;
    EXPECT_TRUE(stores.session->cluster());
    owners.insert(stores.session->url().port);
    EXPECT_EQ(stores.session->clear_namespace(), "");
  }
  EXPECT_EQ(owners, ports);
}

TEST(RedisCluster, ANamespaceWithoutAHashTagIsRefusedWithOneClearLineOnEveryNode) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  ASSERT_EQ(urls.size(), 3U);
  // The default namespace (golden fixture keys), one without braces, an empty tag, an unclosed one.
  for (const std::string& key_namespace : {std::string(kDefaultNamespace), testing::unique_namespace(),
                                          std::string("{}zlink:v11:"), std::string("zlink:{v11:")}) {
    for (const std::string& url : urls) {
      SCOPED_TRACE(url + " " + key_namespace);
      const RedisStores refused = open_redis_stores(cluster_options(url, key_namespace), test_clock());
      EXPECT_EQ(refused.session, nullptr);
      EXPECT_EQ(refused.error, "redis cluster needs a hash-tagged namespace such as \"{zlink:v11}:\"; got \"" +
                                   key_namespace + "\"");
    }
    for (const std::string& url : urls) {
      EXPECT_EQ(keys_on_node(url, key_namespace), 0U) << "the refused open wrote into " << url;
    }
  }
}

TEST(RedisCluster, ADatabaseOtherThanZeroIsRefusedInOneLine) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  const RedisStores refused = open_redis_stores(cluster_options(urls[0] + "/1", unique_tagged_namespace()), test_clock());
  EXPECT_EQ(refused.session, nullptr);
  EXPECT_EQ(refused.error, "SELECT 1 on " + urls[0] + "/1 failed: ERR SELECT is not allowed in cluster mode");
}

TEST(RedisCluster, ATaggedNamespaceOpenedThroughAnyNodeLivesOnTheNodeOwningItsSlot) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  const std::string key_namespace = unique_tagged_namespace();
  std::vector<RedisStores> sessions;
  for (const std::string& url : urls) {
    sessions.push_back(open_redis_stores(cluster_options(url, key_namespace), test_clock()));
    ASSERT_NE(sessions.back().location, nullptr) << sessions.back().error;
    EXPECT_TRUE(sessions.back().session->cluster());
  }
  const int owner_port = sessions.front().session->url().port;
  for (RedisStores& stores : sessions) {
    EXPECT_EQ(stores.session->url().port, owner_port) << "every session talks to the slot's owner";
  }
  // Records, an open scan (history), a counter and a payload: every structure of the layout.
  LocationStore& location = *sessions[1].location;
  ASSERT_TRUE(std::holds_alternative<Applied>(location.write(WriteRequest{{}, {Put{"a", "1"}, Put{"b", "2"}}}, kNoDeadline)));
  const ScanResult page = location.scan(ScanRequest{"", "", std::nullopt, 1}, kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<ScanPage>(page));
  ASSERT_TRUE(std::holds_alternative<Applied>(
      sessions[2].location->write(WriteRequest{{}, {Put{"a", "3"}, Increment{"n", 1, 0, 9}}}, kNoDeadline)));
  ASSERT_TRUE(std::holds_alternative<Stored>(sessions[0].relocation->put(PayloadPut{"r", "payload", 0}, kNoDeadline)));
  const ReadResult read = sessions[0].location->read("a", kNoDeadline);
  ASSERT_TRUE(std::holds_alternative<Found>(read));
  EXPECT_EQ(std::get<Found>(read).value, "3");

  // Every key of the namespace is in the slot of its tag, on the owner, and nowhere else.
  const RedisSession::KeyList listed = sessions[0].session->list_keys(10'000);
  ASSERT_EQ(listed.error, "");
  EXPECT_GE(listed.keys.size(), 10U) << "records, idx, seq, history, scans, payload, marker, secret";
  testing::NodeContext owner = connect_node("redis://127.0.0.1:" + std::to_string(owner_port));
  const ReplyPtr slot = node_command(owner.get(), {"CLUSTER", "KEYSLOT", sequence_key(key_namespace)});
  ASSERT_NE(slot, nullptr);
  ASSERT_EQ(slot->type, REDIS_REPLY_INTEGER);
  for (const std::string& key : listed.keys) {
    const ReplyPtr key_slot = node_command(owner.get(), {"CLUSTER", "KEYSLOT", key});
    ASSERT_NE(key_slot, nullptr);
    EXPECT_EQ(key_slot->integer, slot->integer) << key;
  }
  const ReplyPtr in_slot = node_command(owner.get(), {"CLUSTER", "COUNTKEYSINSLOT", std::to_string(slot->integer)});
  ASSERT_NE(in_slot, nullptr);
  EXPECT_EQ(static_cast<std::size_t>(in_slot->integer), listed.keys.size());
  for (const std::string& url : urls) {
    const bool is_owner = node_port(url) == owner_port;
    EXPECT_EQ(keys_on_node(url, key_namespace), is_owner ? listed.keys.size() : 0U) << url;
  }
  EXPECT_EQ(sessions[0].session->clear_namespace(), "");
}

// EVAL of `script` with KEYS = {key} and ARGV = {namespace, args...} through the session (the
// owner of the namespace's slot).
CallResult eval_with_key(RedisSession& session, ScriptId script, const std::string& key,
                         const std::vector<std::string>& args) {
  std::vector<std::string_view> argv{"EVAL", script_text(script), "1", key, session.key_namespace()};
  argv.insert(argv.end(), args.begin(), args.end());
  return session.command(argv);
}

TEST(RedisCluster, EveryScriptRefusesAKeyOutsideTheNamespaceBeforeTouchingAnything) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  RedisStores stores = open_redis_stores(cluster_options(urls[0], unique_tagged_namespace()), test_clock());
  ASSERT_NE(stores.session, nullptr) << stores.error;
  RedisSession& session = *stores.session;
  ASSERT_TRUE(std::holds_alternative<Applied>(stores.location->write(WriteRequest{{}, {Put{"a", "1"}}}, kNoDeadline)));
  // In the namespace's slot (same tag) but not under the namespace: the cluster runs the call,
  // only common.lua's check stops it.
  const std::string outside = "{" + std::string(namespace_hash_tag(session.key_namespace())) + "}outside";
  const std::string key_sha = sha256_hex("k");
  // Arguments each script accepts: with the namespace's own routing key every call succeeds.
  const std::map<ScriptId, std::vector<std::string>> args = {
      {ScriptId::kRead, {key_sha}},
      {ScriptId::kWrite, {"0", "1", "p", key_sha, index_member("k", key_sha), "v", "", ""}},
      {ScriptId::kScan, {"first", "1000", "10", "1000000", "4096", "-", "+", "", ""}},
      {ScriptId::kRelocationPut, {"payload", "0"}},
      {ScriptId::kRelocationGet, {}},
      {ScriptId::kRelocationDelete, {}}};
  const testing::NamespaceDump before = testing::dump_namespace(session);
  ASSERT_EQ(before.error, "");
  for (const auto& [script, script_args] : args) {
    SCOPED_TRACE(std::string(script_name(script)));
    const CallResult refused = eval_with_key(session, script, outside, script_args);
    ASSERT_EQ(refused.failure, CallFailure::kNone) << refused.message;
    ASSERT_EQ(refused.reply->type, REDIS_REPLY_ERROR);
    EXPECT_NE(reply_text(refused.reply.get()).find("a key outside the namespace"), std::string_view::npos)
        << reply_text(refused.reply.get());
  }
  const testing::NamespaceDump after = testing::dump_namespace(session);
  EXPECT_EQ(before, after) << testing::describe_difference(before, after);
  const std::array<std::string_view, 2> exists{"EXISTS", outside};
  EXPECT_EQ(reply_int(session.command(exists).reply.get()), 0);
  // The same calls with the namespace's own keys run.
  for (const auto& [script, script_args] : args) {
    SCOPED_TRACE(std::string(script_name(script)));
    const bool relocation = script == ScriptId::kRelocationPut || script == ScriptId::kRelocationGet ||
                            script == ScriptId::kRelocationDelete;
    const std::string own = relocation ? relocation_key(session.key_namespace(), "r") : sequence_key(session.key_namespace());
    const CallResult ran = eval_with_key(session, script, own, script_args);
    ASSERT_EQ(ran.failure, CallFailure::kNone) << ran.message;
    EXPECT_EQ(ran.reply->type, REDIS_REPLY_ARRAY) << reply_text(ran.reply.get());
  }
  EXPECT_EQ(session.clear_namespace(), "");
}

}  // namespace
}  // namespace spotcheck::store::redis
