// RedisSession on a Redis Cluster (docs/redis.md, "Redis Cluster"): a hash-tagged namespace keeps
// every key in one slot; the session talks to the master of that slot and follows MOVED.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "impl/check/check.h"
#include "impl/store/redis/cluster_route.h"
#include "impl/store/redis/redis_session.h"
#include "impl/store/redis/reply_parse.h"

namespace spotcheck::store::redis {

namespace {

constexpr long long kClusterSlots = 16'384;

std::string error_text(const CallResult& r) {
  if (r.failure != CallFailure::kNone) {
    return r.message;
  }
  return std::string(reply_text(r.reply.get()));
}

bool failed(const CallResult& r) { return r.failure != CallFailure::kNone || r.reply->type == REDIS_REPLY_ERROR; }

// Whether the session's server is a Redis Cluster node (INFO cluster), or why asking failed.
struct ClusterProbe {
  bool cluster = false;
  std::string error;
};

ClusterProbe probe_cluster(RedisSession& session) {
  const std::string node = session.url().redacted();
  const std::array<std::string_view, 2> info{"INFO", "cluster"};
  const CallResult asked = session.command(info);
  if (asked.failure != CallFailure::kNone) {
    return ClusterProbe{false, "asking " + node + " whether it is a cluster failed: " + asked.message};
  }
  if (asked.reply->type == REDIS_REPLY_ERROR) {
    if (error_text(asked).rfind("NOAUTH", 0) == 0) {
      return ClusterProbe{false, node + " requires a password (NOAUTH); put it in the URL"};
    }
    return ClusterProbe{};  // INFO refused (ACL, renamed): taken as a standalone server
  }
  return ClusterProbe{info_says_cluster(reply_text(asked.reply.get())), {}};
}

// The master serving the namespace's slot (CLUSTER KEYSLOT of its seq, CLUSTER SLOTS), or why
// there is none.
struct SlotMaster {
  std::optional<NodeAddress> node;
  std::string error;
};

SlotMaster namespace_slot_master(RedisSession& session) {
  const std::string node = session.url().redacted();
  const std::string routing_key = sequence_key(session.key_namespace());
  const std::array<std::string_view, 3> keyslot{"CLUSTER", "KEYSLOT", routing_key};
  const CallResult slot = session.command(keyslot);
  const std::optional<std::int64_t> slot_number = failed(slot) ? std::nullopt : reply_int(slot.reply.get());
  if (!slot_number) {
    return SlotMaster{std::nullopt, "reading the namespace's slot from " + node + " failed: " + error_text(slot)};
  }
  SPOTCHECK_ASSERT(*slot_number >= 0);
  SPOTCHECK_ASSERT(*slot_number < kClusterSlots);
  const std::array<std::string_view, 2> slots{"CLUSTER", "SLOTS"};
  const CallResult layout = session.command(slots);
  if (failed(layout)) {
    return SlotMaster{std::nullopt, "reading the cluster layout from " + node + " failed: " + error_text(layout)};
  }
  std::optional<NodeAddress> owner = slot_owner(layout.reply.get(), *slot_number);
  if (!owner) {
    return SlotMaster{std::nullopt, "redis cluster at " + node + " has no node serving slot " +
                                        std::to_string(*slot_number) + " (namespace '" + session.key_namespace() +
                                        "'); is cluster_state ok?"};
  }
  return SlotMaster{std::move(owner), {}};
}

// Points `connection` at `node` (an empty host: the host it already talks to) unless it is there.
void move_to(RedisConnection& connection, const NodeAddress& node) {
  SPOTCHECK_ASSERT(node.port > 0);
  const std::string host = node.host.empty() ? connection.url().host : node.host;
  if (host != connection.url().host || node.port != connection.url().port) {
    connection.retarget(host, node.port);
  }
  SPOTCHECK_ASSERT(connection.url().port == node.port);
}

}  // namespace

std::string RedisSession::route_to_namespace_node() {
  const ClusterProbe probe = probe_cluster(*this);
  if (!probe.error.empty() || !probe.cluster) {
    return probe.error;
  }
  _cluster = true;
  if (std::string error = cluster_namespace_error(_options.key_namespace); !error.empty()) {
    return error;  // before anything was written anywhere
  }
  const SlotMaster master = namespace_slot_master(*this);
  if (!master.node) {
    return master.error;
  }
  move_to(_connection, *master.node);
  return _connection.ensure_connected(_options.connect_timeout_ms * platform::kMicrosPerMilli);
}

bool RedisSession::follow_moved(std::string_view error) {
  if (error.rfind("MOVED ", 0) != 0) {
    return false;
  }
  const std::optional<NodeAddress> target = redirect_target(error);
  if (!target) {
    return false;
  }
  // Even when it names the node already talked to (a stale connection): reconnect and resend.
  _connection.retarget(target->host.empty() ? _connection.url().host : target->host, target->port);
  return true;
}

}  // namespace spotcheck::store::redis
