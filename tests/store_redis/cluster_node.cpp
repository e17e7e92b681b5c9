#include "tests/store_redis/cluster_node.h"

#include <gtest/gtest.h>

#include "impl/store/redis/key_layout.h"
#include "impl/store/redis/redis_url.h"

namespace spotcheck::store::redis::testing {

NodeContext connect_node(const std::string& url) {
  const RedisUrlParse parsed = parse_redis_url(url);
  if (!parsed.url) {
    ADD_FAILURE() << "not a redis URL: " << url;
    return nullptr;
  }
  NodeContext context(redisConnect(parsed.url->host.c_str(), parsed.url->port));
  if (context == nullptr || context->err != 0) {
    ADD_FAILURE() << "cannot connect to " << url;
    return nullptr;
  }
  return context;
}

ReplyPtr node_command(redisContext* context, const std::vector<std::string>& argv) {
  if (context == nullptr) {
    return nullptr;
  }
  std::vector<const char*> pointers;
  std::vector<size_t> lengths;
  for (const std::string& arg : argv) {
    pointers.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  return ReplyPtr(static_cast<redisReply*>(
      redisCommandArgv(context, static_cast<int>(argv.size()), pointers.data(), lengths.data())));
}

int node_port(const std::string& url) {
  const RedisUrlParse parsed = parse_redis_url(url);
  return parsed.url ? parsed.url->port : 0;
}

std::size_t keys_on_node(const std::string& url, const std::string& prefix) {
  NodeContext context = connect_node(url);
  std::size_t count = 0;
  std::string cursor = "0";
  // Bound: SCAN ends when the cursor is back at 0; 10,000 rounds of 1,000 are far more than a test writes.
  for (int round = 0; round < 10'000; ++round) {
    ReplyPtr reply = node_command(context.get(), {"SCAN", cursor, "MATCH", glob_escape(prefix) + "*", "COUNT", "1000"});
    if (reply == nullptr || reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
      ADD_FAILURE() << "SCAN failed on " << url;
      return count;
    }
    count += reply->element[1]->elements;
    cursor = std::string(reply_text(reply->element[0]));
    if (cursor == "0") {
      return count;
    }
  }
  ADD_FAILURE() << "SCAN did not finish on " << url;
  return count;
}

std::set<SlotRange> slot_ranges(const std::string& url) {
  NodeContext context = connect_node(url);
  const ReplyPtr reply = node_command(context.get(), {"CLUSTER", "SLOTS"});
  std::set<SlotRange> ranges;
  if (reply == nullptr || reply->type != REDIS_REPLY_ARRAY) {
    ADD_FAILURE() << "CLUSTER SLOTS failed on " << url;
    return ranges;
  }
  for (std::size_t i = 0; i < reply->elements; ++i) {
    const redisReply* range = reply->element[i];
    EXPECT_GE(range->elements, 3U);
    if (range->elements >= 3 && range->element[2]->elements >= 2) {
      ranges.insert(SlotRange{range->element[0]->integer, range->element[1]->integer,
                              static_cast<int>(range->element[2]->element[1]->integer)});
    }
  }
  return ranges;
}

}  // namespace spotcheck::store::redis::testing
