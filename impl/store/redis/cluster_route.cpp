#include "impl/store/redis/cluster_route.h"

#include <charconv>

#include "impl/store/redis/key_layout.h"
#include "impl/store/redis/redis_connection.h"

namespace spotcheck::store::redis {

namespace {

std::optional<long long> parse_number(std::string_view text) {
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

std::optional<NodeAddress> parse_host_port(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  const auto port = parse_number(text.substr(colon + 1));
  if (!port || *port <= 0 || *port > 65535) {
    return std::nullopt;
  }
  return NodeAddress{std::string(text.substr(0, colon)), static_cast<int>(*port)};
}

std::optional<long long> integer_of(const redisReply* reply) {
  if (reply == nullptr || reply->type != REDIS_REPLY_INTEGER) {
    return std::nullopt;
  }
  return reply->integer;
}

}  // namespace

bool info_says_cluster(std::string_view info) {
  constexpr std::string_view kField = "cluster_enabled:";
  const std::size_t at = info.find(kField);
  return at != std::string_view::npos && info.substr(at + kField.size(), 1) == "1";
}

std::string cluster_namespace_error(std::string_view key_namespace) {
  if (!namespace_hash_tag(key_namespace).empty()) {
    return {};
  }
  return "redis cluster needs a hash-tagged namespace such as \"{zlink:v11}:\"; got \"" + std::string(key_namespace) +
         "\"";
}

std::optional<NodeAddress> redirect_target(std::string_view error) {
  std::string_view rest;
  if (error.substr(0, 6) == "MOVED ") {
    rest = error.substr(6);
  } else if (error.substr(0, 4) == "ASK ") {
    rest = error.substr(4);
  } else {
    return std::nullopt;
  }
  const std::size_t space = rest.find(' ');
  if (space == std::string_view::npos || !parse_number(rest.substr(0, space))) {
    return std::nullopt;
  }
  std::string_view address = rest.substr(space + 1);
  if (const std::size_t end = address.find_first_of(" \r\n"); end != std::string_view::npos) {
    address = address.substr(0, end);
  }
  return parse_host_port(address);
}

std::optional<NodeAddress> slot_owner(const redisReply* cluster_slots, long long slot) {
  if (cluster_slots == nullptr || cluster_slots->type != REDIS_REPLY_ARRAY) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i < cluster_slots->elements; ++i) {
    // [first slot, last slot, [host, port, id, ...] (the master), replicas...]
    const redisReply* range = cluster_slots->element[i];
    if (range == nullptr || range->type != REDIS_REPLY_ARRAY || range->elements < 3) {
      continue;
    }
    const auto first = integer_of(range->element[0]);
    const auto last = integer_of(range->element[1]);
    const redisReply* master = range->element[2];
    if (!first || !last || slot < *first || slot > *last || master == nullptr || master->type != REDIS_REPLY_ARRAY ||
        master->elements < 2) {
      continue;
    }
    const auto port = integer_of(master->element[1]);
    if (!port || *port <= 0 || *port > 65535) {
      return std::nullopt;
    }
    return NodeAddress{std::string(reply_text(master->element[0])), static_cast<int>(*port)};
  }
  return std::nullopt;
}

}  // namespace spotcheck::store::redis
