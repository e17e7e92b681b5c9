// Redis Cluster by hand (hiredis 0.14 has none): is the server a cluster node, which node owns a
// slot, where does a MOVED reply point. Pure functions over reply texts (docs/redis.md, "Redis
// Cluster").
#pragma once

#include <hiredis/hiredis.h>

#include <optional>
#include <string>
#include <string_view>

namespace spotcheck::store::redis {

struct NodeAddress {
  std::string host;  // empty: the host the client already talks to
  int port = 0;
};

// Whether an `INFO cluster` reply says cluster_enabled:1.
bool info_says_cluster(std::string_view info);
// "" when `key_namespace` can be used on a cluster (a non-empty hash tag puts every key of the
// namespace in one slot), else the one-line error.
std::string cluster_namespace_error(std::string_view key_namespace);
// The node of a `MOVED <slot> <host>:<port>` or `ASK <slot> <host>:<port>` error; nullopt for
// other errors.
std::optional<NodeAddress> redirect_target(std::string_view error);
// The master serving `slot` in a `CLUSTER SLOTS` reply; nullopt when no range covers it.
std::optional<NodeAddress> slot_owner(const redisReply* cluster_slots, long long slot);

}  // namespace spotcheck::store::redis
