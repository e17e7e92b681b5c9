#include "tests/integration/integration_test_env.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

#include <memory>
#include <vector>

#include "impl/store/redis/key_layout.h"
#include "impl/store/redis/redis_url.h"

namespace spotcheck::scenarios::integration::testing {

namespace {

struct ContextDeleter {
  void operator()(redisContext* context) const { redisFree(context); }
};
using ContextPtr = std::unique_ptr<redisContext, ContextDeleter>;
struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

// Bound of SCAN rounds over the test server.
constexpr int kScanRoundsMax = 100'000;

ContextPtr connect(const std::string& url) {
  const store::redis::RedisUrlParse parsed = store::redis::parse_redis_url(url);
  if (!parsed.url) {
    return nullptr;
  }
  const timeval timeout{2, 0};
  ContextPtr context(redisConnectWithTimeout(parsed.url->host.c_str(), parsed.url->port, timeout));
  if (context == nullptr || context->err != 0) {
    return nullptr;
  }
  if (!parsed.url->password.empty()) {
    ReplyPtr auth(static_cast<redisReply*>(redisCommand(context.get(), "AUTH %s", parsed.url->password.c_str())));
    if (auth == nullptr || auth->type == REDIS_REPLY_ERROR) {
      return nullptr;
    }
  }
  ReplyPtr select(static_cast<redisReply*>(redisCommand(context.get(), "SELECT %d", parsed.url->db)));
  if (select == nullptr || select->type == REDIS_REPLY_ERROR) {
    return nullptr;
  }
  return context;
}

// Every key under the namespace, or nullopt-like failure (returns false).
bool scan_namespace(redisContext* context, const std::string& key_namespace, std::vector<std::string>& keys) {
  const std::string pattern = store::redis::glob_escape(key_namespace) + "*";
  std::string cursor = "0";
  for (int round = 0; round < kScanRoundsMax; ++round) {
    ReplyPtr reply(static_cast<redisReply*>(
        redisCommand(context, "SCAN %s MATCH %b COUNT 1000", cursor.c_str(), pattern.data(), pattern.size())));
    if (reply == nullptr || reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
      return false;
    }
    const redisReply* batch = reply->element[1];
    for (std::size_t i = 0; i < batch->elements; ++i) {
      keys.emplace_back(batch->element[i]->str, batch->element[i]->len);
    }
    cursor.assign(reply->element[0]->str, reply->element[0]->len);
    if (cursor == "0") {
      return true;
    }
  }
  return false;
}

}  // namespace

IntegrationRequest make_request(const std::string& scenario, const std::string& url, platform::TimeUs duration_us,
                                std::uint64_t seed) {
  IntegrationRequest request;
  const bool found = find_integration_scenario(scenario, request.scenario);
  EXPECT_TRUE(found) << scenario;
  request.redis.url = url;
  request.duration_us = duration_us;
  request.seed = seed;
  return request;
}

long count_keys(const std::string& url, const std::string& key_namespace) {
  ContextPtr context = connect(url);
  std::vector<std::string> keys;
  if (context == nullptr || !scan_namespace(context.get(), key_namespace, keys)) {
    return -1;
  }
  return static_cast<long>(keys.size());
}

bool set_raw_key(const std::string& url, const std::string& key, const std::string& value) {
  ContextPtr context = connect(url);
  if (context == nullptr) {
    return false;
  }
  ReplyPtr reply(static_cast<redisReply*>(
      redisCommand(context.get(), "SET %b %b", key.data(), key.size(), value.data(), value.size())));
  return reply != nullptr && reply->type == REDIS_REPLY_STATUS;
}

std::string get_raw_key(const std::string& url, const std::string& key) {
  ContextPtr context = connect(url);
  if (context == nullptr) {
    return {};
  }
  ReplyPtr reply(static_cast<redisReply*>(redisCommand(context.get(), "GET %b", key.data(), key.size())));
  if (reply == nullptr || reply->type != REDIS_REPLY_STRING) {
    return {};
  }
  return std::string(reply->str, reply->len);
}

void remove_raw_namespace(const std::string& url, const std::string& key_namespace) {
  ContextPtr context = connect(url);
  std::vector<std::string> keys;
  if (context == nullptr || !scan_namespace(context.get(), key_namespace, keys)) {
    return;
  }
  for (const std::string& key : keys) {
    ReplyPtr reply(static_cast<redisReply*>(redisCommand(context.get(), "UNLINK %b", key.data(), key.size())));
  }
}

}  // namespace spotcheck::scenarios::integration::testing
