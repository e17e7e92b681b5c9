#include "scenarios/integration/redis_target.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <random>
#include <string_view>

#include "impl/store/redis/key_layout.h"

namespace spotcheck::scenarios::integration {

namespace redis = spotcheck::store::redis;
using redis::CallResult;

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


// UNLINKs keys in batches of at most kUnlinkBatch, counting what it removed.
class UnlinkBatch {
 public:
  explicit UnlinkBatch(redis::RedisSession& session) : _session(session) { _command.assign(1, "UNLINK"); }

  // Adds `key` (it must outlive the batch), sending the batch when it is full; "" or the error.
  std::string add(std::string_view key) {
    _command.push_back(key);
    return _command.size() > kUnlinkBatch ? flush() : std::string();
  }

  // Sends what is queued; "" or the error.
  std::string flush() {
    if (_command.size() <= 1) {
      return {};
    }
    CallResult result = _session.command(_command);
    if (result.failure != redis::CallFailure::kNone) {
      return "UNLINK failed: " + result.message;
    }
    if (result.reply->type == REDIS_REPLY_ERROR) {
      return "UNLINK failed: " + std::string(redis::reply_text(result.reply.get()));
    }
    _removed += static_cast<long>(_command.size() - 1);
    _command.assign(1, "UNLINK");
    return {};
  }

  long removed() const { return _removed; }

 private:
  static constexpr std::size_t kUnlinkBatch = 256;
  redis::RedisSession& _session;
  std::vector<std::string_view> _command;
  long _removed = 0;
};

// The cleanup of a run whose last listing found nothing more of its own: `removed` keys went, and
// the namespace keeps what it held before and what the provider never writes.
NamespaceCleanup cleaned_up(long removed, long kept_before, long not_ours) {
  NamespaceCleanup out;
  out.removed_keys = removed;
  out.left_keys = kept_before + not_ours;
  if (out.left_keys == 0) {
    out.outcome = "removed (" + std::to_string(removed) + " keys)";
    return out;
  }
  out.outcome = "the run's " + std::to_string(removed) + " keys removed; left as they were: ";
  if (kept_before > 0) {
    out.outcome += std::to_string(kept_before) + " keys it held before the run";
  }
  if (not_ours > 0) {
    out.outcome += std::string(kept_before > 0 ? ", " : "") + std::to_string(not_ours) +
                   " keys at names spotcheck never writes";
  }
  return out;
}

}  // namespace

std::string fresh_namespace() {
  std::random_device device;  // outside any simulation: integration runs are not replayable
  const std::uint64_t bits = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "{spotcheck:it:%016llx}:", static_cast<unsigned long long>(bits));
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
  RedisTarget* self = target.get();
  target->_stores = redis::open_redis_stores(store_options, target->_clock,
                                             [self](redis::RedisSession& session) { return self->check_namespace(session); });
  if (!target->_stores.error.empty()) {
    out.error = target->_stores.error;
    if (out.error.find(kForeignText) != std::string::npos) {
      const redis::RedisUrlParse url = redis::parse_redis_url(chosen.url);
      out.error = "redis namespace '" + chosen.key_namespace + "' on " + (url.url ? url.url->redacted() : chosen.url) +
                  " holds keys spotcheck did not write; refusing to use it (pass --adopt-namespace to run there anyway)";
    }
    return out;
  }
  out.target = std::move(target);
  return out;
}

std::string RedisTarget::check_namespace(redis::RedisSession& session) {
  const std::string& ns = _options.key_namespace;
  const std::string url = session.url().redacted();
  const redis::RedisSession::KeyList listed = session.list_keys(_options.adopt_keys_max);
  if (!listed.error.empty()) {
    return "cannot take redis namespace '" + ns + "' on " + url + ": " + listed.error;
  }
  const std::vector<std::string>& keys = listed.keys;
  const std::string marker = redis::marker_key(ns);
  const std::string secret = redis::scan_secret_key(ns);
  const bool marked = session.found_marker();
  // Without the marker even a key at the scan secret's name is someone else's.
  const bool empty = std::all_of(keys.begin(), keys.end(),
                                 [&](const std::string& key) { return marked && (key == secret || key == marker); });
  if (empty) {
    _start = NamespaceStart::empty;  // only the provider's own bookkeeping: removed afterwards
  } else if (!_options.adopt_namespace) {
    // A foreign namespace was refused by the session already: this is an earlier run's data.
    return "redis namespace '" + ns + "' on " + url +
           " already holds data (an earlier run's?); pass another --namespace, or --adopt-namespace to run on top of it";
  } else if (marked) {
    _start = NamespaceStart::earlier_run;
    _keys_before = std::move(keys);
  } else {
    // The scripts would change a foreign key at the name of one of their namespace-wide structures.
    for (const std::string& shared : redis::provider_shared_keys(ns)) {
      if (std::binary_search(keys.begin(), keys.end(), shared)) {
        return "redis namespace '" + ns + "' on " + url + " holds a key '" + shared +
               "' that spotcheck's store scripts would change; refusing to adopt it";
      }
    }
    _start = NamespaceStart::foreign;
    _keys_before = std::move(keys);
  }
  if (_options.before_first_write) {
    _options.before_first_write(ns, url);
  }
  return {};
}

redis::RedisStoreOptions RedisTarget::node_options() const {
  redis::RedisStoreOptions node = _store_options;
  // An empty namespace now carries the marker; an earlier run's had it; a foreign one stays unmarked.
  node.adopt_foreign_namespace = _start == NamespaceStart::foreign;
  return node;
}

RedisTarget::TimeRead RedisTarget::redis_time_us() {
  redis::RedisConnection& connection = _stores.session->connection();
  const platform::TimeUs timeout_us = _options.command_timeout_ms * platform::kMicrosPerMilli;
  if (std::string failed = connection.ensure_connected(timeout_us); !failed.empty()) {
    return TimeRead{std::nullopt, "redis TIME: " + failed};
  }
  const std::array<std::string_view, 1> argv{"TIME"};
  redis::CallResult result = connection.call(argv, timeout_us);
  if (result.failure != redis::CallFailure::kNone) {
    return TimeRead{std::nullopt, "redis TIME: " + result.message};
  }
  const redisReply* reply = result.reply.get();
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
    return TimeRead{std::nullopt, "redis TIME: unexpected reply"};
  }
  const auto seconds = parse_int(redis::reply_text(reply->element[0]));
  const auto micros = parse_int(redis::reply_text(reply->element[1]));
  if (!seconds.has_value() || !micros.has_value()) {
    return TimeRead{std::nullopt, "redis TIME: unexpected reply"};
  }
  return TimeRead{*seconds * platform::kMicrosPerSecond + *micros, {}};
}

RedisTarget::KeysLeft RedisTarget::count_left() {
  constexpr std::size_t kCountMax = 100'000'000;
  const redis::RedisSession::KeyList listed = _stores.session->list_keys(kCountMax);
  if (!listed.error.empty()) {
    return KeysLeft{-1, listed.error};
  }
  return KeysLeft{static_cast<long>(listed.keys.size()), {}};
}

RedisTarget::RemovalRound RedisTarget::remove_round() {
  constexpr std::size_t kRunKeysMax = 100'000'000;
  RemovalRound round;
  const redis::RedisSession::KeyList listed = _stores.session->list_keys(kRunKeysMax);
  if (!listed.error.empty()) {
    round.error = listed.error;
    return round;
  }
  UnlinkBatch batch(*_stores.session);
  for (const std::string& key : listed.keys) {
    if (std::binary_search(_keys_before.begin(), _keys_before.end(), key)) {
      ++round.kept_before;
    } else if (!redis::is_provider_key(_options.key_namespace, key)) {
      ++round.not_ours;
    } else if (round.error = batch.add(key); !round.error.empty()) {
      break;
    }
  }
  if (round.error.empty()) {
    round.error = batch.flush();
  }
  round.removed = batch.removed();
  return round;
}

NamespaceCleanup RedisTarget::removal_failed(const std::string& error, long removed) {
  NamespaceCleanup out;
  out.removed_keys = removed;
  out.failed = true;
  out.left_keys = count_left().count;  // -1 when it fails too
  out.left = "namespace '" + _options.key_namespace + "' on " + url_redacted() + ": " +
             (out.left_keys >= 0 ? std::to_string(out.left_keys) + " keys left"
                                 : "an unknown number of keys left (counting them failed too)");
  out.outcome = "removing the run's keys FAILED (" + error + "); " + out.left;
  return out;
}

NamespaceCleanup RedisTarget::remove_run_keys() {
  // A write a node sent before the stop may still be applied (the server had it buffered) after
  // a listing: list again until a listing finds nothing to remove (bounded).
  constexpr int kRoundsMax = 3;
  long removed = 0;
  RemovalRound last;
  for (int round = 0; round < kRoundsMax; ++round) {
    last = remove_round();
    removed += last.removed;
    if (!last.error.empty()) {
      return removal_failed(last.error, removed);
    }
    if (last.removed == 0) {
      return cleaned_up(removed, last.kept_before, last.not_ours);  // this listing found nothing of the run's: the counts are final
    }
  }
  return removal_failed("keys of the run kept appearing", removed);
}

NamespaceCleanup RedisTarget::finish() {
  if (_options.keep || _start == NamespaceStart::earlier_run) {
    NamespaceCleanup out;
    out.outcome = _options.keep ? "kept (--keep)" : "kept (it held an earlier run's data)";
    const KeysLeft left = count_left();
    out.left_keys = left.count;
    if (left.error.empty()) {
      out.outcome += ", " + std::to_string(out.left_keys) + " keys";
    }
    return out;
  }
  return remove_run_keys();
}

}  // namespace spotcheck::scenarios::integration
