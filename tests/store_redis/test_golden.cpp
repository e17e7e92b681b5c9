// Golden fixture conformance (spec §3.4, §12): the public records written through the provider
// land at the fixture's redisKey, and Redis holds exactly the canonical value bytes.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::redis {
namespace {

using testing::PrivateRedisServer;
using testing::test_clock;
using testing::kNoDeadline;


std::string hex_decode(const std::string& hex) {
  EXPECT_EQ(hex.size() % 2, 0U);
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

nlohmann::json load_fixture() {
  std::ifstream in(SPOTCHECK_GOLDEN_FIXTURE);
  EXPECT_TRUE(in.good()) << "cannot read " << SPOTCHECK_GOLDEN_FIXTURE;
  if (!in.good()) {
    return {};
  }
  return nlohmann::json::parse(in);
}

struct RawReply {
  redisReply* reply = nullptr;
  ~RawReply() {
    if (reply != nullptr) {
      freeReplyObject(reply);
    }
  }
};

TEST(RedisGolden, KeyDerivationMatchesEveryFixtureVector) {
  const nlohmann::json fixture = load_fixture();
  ASSERT_TRUE(fixture.contains("vectors"));
  std::size_t checked = 0;
  for (const auto& vector : fixture["vectors"]) {
    const Key preimage = hex_decode(vector["preimageHex"].get<std::string>());
    EXPECT_EQ(sha256_hex(preimage), vector["sha256Hex"].get<std::string>()) << vector["record"];
    EXPECT_EQ(record_key(kDefaultNamespace, preimage), vector["redisKey"].get<std::string>()) << vector["record"];
    ++checked;
  }
  EXPECT_GE(checked, 5U);
}

TEST(RedisGolden, PublicRecordsLandAtTheFixtureKeyWithCanonicalBytes) {
  const nlohmann::json fixture = load_fixture();
  ASSERT_TRUE(fixture.contains("vectors"));
  // A private server, so the default namespace zlink:v11: touches nobody else's keys.
  PrivateRedisServer server;
  if (!server.error().empty()) {
    if (testing::missing_redis_allowed()) {
      GTEST_SKIP() << server.error();
    }
    FAIL() << server.error();
  }
  RedisStoreOptions options;
  options.url = server.url();
  options.key_namespace = std::string(kDefaultNamespace);
  RedisStores stores = open_redis_stores(options, test_clock());
  ASSERT_NE(stores.location, nullptr) << stores.error;

  redisContext* raw = redisConnect("127.0.0.1", server.port());
  ASSERT_TRUE(raw != nullptr && raw->err == 0);
  std::size_t records = 0;
  for (const auto& vector : fixture["vectors"]) {
    if (!vector.contains("valueBytesHex")) {
      continue;  // key-derivation-only vector
    }
    const std::string name = vector["record"].get<std::string>();
    const Key logical_key = hex_decode(vector["preimageHex"].get<std::string>());
    const Bytes value = hex_decode(vector["valueBytesHex"].get<std::string>());
    const std::string redis_key = vector["redisKey"].get<std::string>();
    EXPECT_EQ(sha256_hex(value), vector["valueSha256Hex"].get<std::string>()) << name;

    WriteRequest request;
    request.conditions.push_back(ExpectAbsent{logical_key});
    request.mutations.push_back(Put{logical_key, value});
    const WriteResult written = stores.location->write(request, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<Applied>(written)) << name;
    const StoreVersion version = std::get<Applied>(written).outcomes.at(0).version;

    RawReply type{static_cast<redisReply*>(redisCommand(raw, "TYPE %b", redis_key.data(), redis_key.size()))};
    ASSERT_NE(type.reply, nullptr);
    EXPECT_EQ(std::string(type.reply->str, type.reply->len), "hash") << name << " at " << redis_key;
    RawReply bytes{static_cast<redisReply*>(redisCommand(raw, "HGET %b v", redis_key.data(), redis_key.size()))};
    ASSERT_NE(bytes.reply, nullptr);
    ASSERT_EQ(bytes.reply->type, REDIS_REPLY_STRING) << name << ": nothing at " << redis_key;
    EXPECT_EQ(std::string(bytes.reply->str, bytes.reply->len), value) << name;
    RawReply ver{static_cast<redisReply*>(redisCommand(raw, "HGET %b ver", redis_key.data(), redis_key.size()))};
    ASSERT_NE(ver.reply, nullptr);
    ASSERT_EQ(ver.reply->type, REDIS_REPLY_STRING);
    EXPECT_EQ(std::string(ver.reply->str, ver.reply->len), std::to_string(version.value)) << name;

    const ReadResult read = stores.location->read(logical_key, kNoDeadline);
    ASSERT_TRUE(std::holds_alternative<Found>(read)) << name;
    EXPECT_EQ(std::get<Found>(read).value, value) << name;
    EXPECT_EQ(std::get<Found>(read).version, version) << name;
    ++records;
  }
  EXPECT_GE(records, 5U) << "the fixture's five public records";
  // Nothing else landed under rec: than the records written.
  RawReply keys{static_cast<redisReply*>(redisCommand(raw, "KEYS zlink:v11:rec:*"))};
  ASSERT_NE(keys.reply, nullptr);
  EXPECT_EQ(keys.reply->elements, records);
  redisFree(raw);
}

}  // namespace
}  // namespace spotcheck::store::redis
