#include "scenarios/integration/redis_target.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <random>
#include <string_view>

#include "impl/store/redis/key_layout.h"

namespace spotcheck::scenarios::integration {

namespace redis = spotcheck::store::redis;

namespace {

constexpr std::string_view kForeignText = "holds keys this provider did not write";

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::string fresh_namespace() {
  std::random_device device;  // outside any simulation: integration runs are not replayable
  const std::uint64_t bits = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "spotcheck:it:%016llx:", static_cast<unsigned long long>(bits));
  return buffer;
}

RedisTarget::RedisTarget(RedisTargetOptions options, redis::RedisStoreOptions store_options)
    : _options(std::move(options)), _store_options(std::move(store_options)) {}

RedisTarget::Opened RedisTarget::open(const RedisTargetOptions& options) {
  Opened out;
  RedisTargetOptions chosen = options;
  if (chosen.key_namespace.empty()) {
    chosen.key_namespace = fresh_namespace();
  }
  redis::RedisStoreOptions store_options;
  store_options.url = chosen.url;
  store_options.key_namespace = chosen.key_namespace;
  store_options.connect_timeout_ms = chosen.connect_timeout_ms;
  store_options.command_timeout_ms = chosen.command_timeout_ms;
  store_options.adopt_foreign_namespace = chosen.adopt_namespace;
  std::unique_ptr<RedisTarget> target(new RedisTarget(chosen, store_options));
  target->_stores = redis::open_redis_stores(store_options, target->_clock);
  if (!target->_stores.error.empty()) {
    out.error = target->_stores.error;
    if (out.error.find(kForeignText) != std::string::npos) {
      const redis::RedisUrlParse url = redis::parse_redis_url(chosen.url);
      out.error = "redis namespace '" + chosen.key_namespace + "' on " + (url.url ? url.url->redacted() : chosen.url) +
                  " holds keys spotcheck did not write; refusing to use it (pass --adopt-namespace to run there anyway)";
    }
    return out;
  }
  std::string error;
  target->_was_empty = target->_stores.session->namespace_is_empty(error);
  if (!error.empty()) {
    out.error = error;
    return out;
  }
  if (!target->_was_empty && !chosen.adopt_namespace) {
    out.error = "redis namespace '" + chosen.key_namespace + "' on " + target->url_redacted() +
                " already holds data (an earlier run's?); pass another --namespace, or --adopt-namespace to run on top of it";
    return out;
  }
  out.target = std::move(target);
  return out;
}

redis::RedisStoreOptions RedisTarget::node_options() const {
  redis::RedisStoreOptions node = _store_options;
  node.adopt_foreign_namespace = false;  // claimed by the admin session: the marker is there
  return node;
}

std::optional<std::int64_t> RedisTarget::redis_time_us(std::string& error) {
  redis::RedisConnection& connection = _stores.session->connection();
  const platform::TimeUs timeout_us = _options.command_timeout_ms * platform::kMicrosPerMilli;
  if (std::string failed = connection.ensure_connected(timeout_us); !failed.empty()) {
    error = "redis TIME: " + failed;
    return std::nullopt;
  }
  const std::array<std::string_view, 1> argv{"TIME"};
  redis::CallResult result = connection.call(argv, timeout_us);
  if (result.failure != redis::CallFailure::kNone) {
    error = "redis TIME: " + result.message;
    return std::nullopt;
  }
  const redisReply* reply = result.reply.get();
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
    error = "redis TIME: unexpected reply";
    return std::nullopt;
  }
  const auto seconds = parse_int(redis::reply_text(reply->element[0]));
  const auto micros = parse_int(redis::reply_text(reply->element[1]));
  if (!seconds.has_value() || !micros.has_value()) {
    error = "redis TIME: unexpected reply";
    return std::nullopt;
  }
  return *seconds * platform::kMicrosPerSecond + *micros;
}

std::string RedisTarget::remove_namespace() {
  redis::RedisSession& session = *_stores.session;
  if (std::string error = session.clear_namespace(); !error.empty()) {
    return error;
  }
  // clear_namespace() claims the namespace again: remove its marker and scan secret too.
  redis::RedisConnection& connection = session.connection();
  const platform::TimeUs timeout_us = _options.command_timeout_ms * platform::kMicrosPerMilli;
  if (std::string failed = connection.ensure_connected(timeout_us); !failed.empty()) {
    return failed;
  }
  const std::string marker = redis::marker_key(_options.key_namespace);
  const std::string secret = redis::scan_secret_key(_options.key_namespace);
  const std::array<std::string_view, 3> argv{"UNLINK", marker, secret};
  redis::CallResult result = connection.call(argv, timeout_us);
  if (result.failure != redis::CallFailure::kNone) {
    return result.message;
  }
  if (result.reply->type == REDIS_REPLY_ERROR) {
    return std::string(redis::reply_text(result.reply.get()));
  }
  return {};
}

std::string RedisTarget::finish() {
  if (_options.keep) {
    return "kept (--keep)";
  }
  if (!_was_empty) {
    return "kept (it held keys before the run)";
  }
  if (std::string error = remove_namespace(); !error.empty()) {
    return "removing it failed: " + error;
  }
  return "removed";
}

}  // namespace spotcheck::scenarios::integration
