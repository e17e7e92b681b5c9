// Talking to one node of a Redis Cluster directly, for tests: no routing, no MOVED following (a
// node answers for itself: SCAN sees only its keys, CLUSTER commands describe its view).
#pragma once

#include <hiredis/hiredis.h>

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "impl/store/redis/redis_connection.h"

namespace spotcheck::store::redis::testing {

struct ContextDeleter {
  void operator()(redisContext* context) const { redisFree(context); }
};
using NodeContext = std::unique_ptr<redisContext, ContextDeleter>;

// A connection to the node of `url` (a gtest failure when it cannot be made).
NodeContext connect_node(const std::string& url);
// One command; null when the connection failed.
ReplyPtr node_command(redisContext* context, const std::vector<std::string>& argv);
// The port of `url` (0 when it does not parse).
int node_port(const std::string& url);
// Keys under `prefix` stored on the node of `url` (SCAN MATCH on that node only).
std::size_t keys_on_node(const std::string& url, const std::string& prefix);

// One CLUSTER SLOTS range: [first, last] served by the master on `master_port`.
struct SlotRange {
  long long first = 0;
  long long last = 0;
  int master_port = 0;
  bool operator<(const SlotRange& other) const { return first < other.first; }
};
// The node's CLUSTER SLOTS, sorted by first slot (empty on an error reply).
std::set<SlotRange> slot_ranges(const std::string& url);

}  // namespace spotcheck::store::redis::testing
