#include "impl/store/redis/redis_session.h"

#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <limits>
#include <vector>

#include "impl/check/check.h"

namespace spotcheck::store::redis {

namespace {

constexpr std::string_view kMarkerValue = "spotcheck-store-redis/1";
constexpr std::size_t kScanSecretBytes = 32;
constexpr std::size_t kMaxKeysPerCall = 256;
// SCAN over a whole database: bounded so a huge shared database cannot hang a check forever.
constexpr std::size_t kMaxScanRounds = 1'000'000;
constexpr std::string_view kScanCount = "1000";
// MOVED redirects one call follows (a slot moved while the session was connected to its old node).
constexpr int kMaxRedirects = 3;

// Writing to a socket the server closed raises SIGPIPE; hiredis 0.14 does not suppress it.
void ignore_sigpipe_if_default() {
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
    std::signal(SIGPIPE, SIG_IGN);
  }
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// Error replies that mean the script did not run at all.
bool means_not_executed(std::string_view error) {
  // Cluster: MOVED/ASK (the slot is served elsewhere), TRYAGAIN (slot migrating), CLUSTERDOWN,
  // CROSSSLOT: refused before running.
  constexpr std::array<std::string_view, 14> kPrefixes = {
      "BUSY",  "LOADING", "OOM",      "READONLY",    "MASTERDOWN", "NOREPLICAS", "NOAUTH",
      "NOPERM", "MISCONF", "MOVED ", "ASK ", "TRYAGAIN", "CLUSTERDOWN", "CROSSSLOT"};
  return std::any_of(kPrefixes.begin(), kPrefixes.end(), [&](std::string_view p) { return starts_with(error, p); });
}

std::string describe_failure(const CallResult& r) {
  if (r.failure != CallFailure::kNone) {
    return r.message;
  }
  if (r.reply && r.reply->type == REDIS_REPLY_ERROR) {
    return std::string(reply_text(r.reply.get()));
  }
  return {};
}

}  // namespace

RedisSession::RedisSession(const RedisStoreOptions& options, RedisUrl url, const platform::Clock& clock)
    : _options(options),
      _clock(clock),
      _connection(std::move(url), options.connect_timeout_ms * platform::kMicrosPerMilli) {}

RedisSession::Opened RedisSession::open(const RedisStoreOptions& options, const platform::Clock& clock,
                                        const BeforeFirstWrite& before_first_write) {
  Opened out;
  RedisUrlParse parsed = parse_redis_url(options.url);
  if (!parsed.url) {
    out.error = parsed.error;
    return out;
  }
  if (options.key_namespace.empty()) {
    out.error = "the redis key namespace must not be empty";
    return out;
  }
  if (options.connect_timeout_ms <= 0 || options.command_timeout_ms <= 0 || options.scan_continuation_ttl_ms <= 0 ||
      options.scan_examine_budget == 0) {
    out.error = "redis timeouts, scan TTL and scan budget must be positive";
    return out;
  }
  ignore_sigpipe_if_default();
  auto session = std::make_shared<RedisSession>(options, std::move(*parsed.url), clock);
  const platform::TimeUs connect_us = options.connect_timeout_ms * platform::kMicrosPerMilli;
  if (std::string error = session->_connection.ensure_connected(connect_us); !error.empty()) {
    out.error = error;
    return out;
  }
  if (std::string error = session->route_to_namespace_node(); !error.empty()) {
    out.error = error;
    return out;
  }
  for (const ScriptId script : kAllScripts) {
    if (std::string error = session->load_script(script); !error.empty()) {
      out.error = error;
      return out;
    }
  }
  const NamespaceCheck checked = session->check_namespace();
  if (!checked.error.empty()) {
    out.error = checked.error;
    return out;
  }
  const bool marker_needed = checked.write_marker;
  if (before_first_write) {
    if (std::string error = before_first_write(*session); !error.empty()) {
      out.error = error;
      return out;
    }
  }
  if (marker_needed) {
    if (std::string error = session->write_marker(); !error.empty()) {
      out.error = error;
      return out;
    }
  }
  if (std::string error = session->load_scan_secret(); !error.empty()) {
    out.error = error;
    return out;
  }
  session->_marked = marker_needed || session->_found_marker;
  out.session = std::move(session);
  return out;
}

platform::TimeUs RedisSession::timeout_for(DeadlineUs deadline_us) const {
  const platform::TimeUs command_us = _options.command_timeout_ms * platform::kMicrosPerMilli;
  if (deadline_us == std::numeric_limits<DeadlineUs>::max()) {
    return command_us;
  }
  return std::min(command_us, deadline_us - _clock.now_us());
}

CallResult RedisSession::command(std::span<const std::string_view> argv) {
  const platform::TimeUs timeout_us = _options.command_timeout_ms * platform::kMicrosPerMilli;
  // Bound: the first send and kMaxRedirects MOVED redirects; the last reply is returned as it is.
  for (int redirects = 0;; ++redirects) {
    SPOTCHECK_ASSERT(redirects <= kMaxRedirects);
    if (std::string error = _connection.ensure_connected(timeout_us); !error.empty()) {
      return CallResult{nullptr, CallFailure::kNotSent, std::move(error)};
    }
    CallResult r = _connection.call(argv, timeout_us);
    const bool moved = r.failure == CallFailure::kNone && r.reply->type == REDIS_REPLY_ERROR &&
                       starts_with(reply_text(r.reply.get()), "MOVED ");
    if (!moved || redirects == kMaxRedirects || !follow_moved(reply_text(r.reply.get()))) {
      return r;
    }
  }
}

std::string RedisSession::load_script(ScriptId script) {
  const std::string& text = script_text(script);
  const std::array<std::string_view, 3> argv{"SCRIPT", "LOAD", text};
  CallResult r = command(argv);
  if (r.failure != CallFailure::kNone || r.reply->type != REDIS_REPLY_STRING) {
    std::string why = describe_failure(r);
    if (starts_with(why, "NOAUTH")) {
      return _connection.url().redacted() + " requires a password (NOAUTH); put it in the URL";
    }
    return "loading the " + std::string(script_name(script)) + " script into " + _connection.url().redacted() +
           " failed: " + why;
  }
  _script_sha1[static_cast<std::size_t>(script)] = std::string(reply_text(r.reply.get()));
  SPOTCHECK_ASSERT(_script_sha1[static_cast<std::size_t>(script)].size() == 40);
  return {};
}

ScriptCall RedisSession::eval(ScriptId script, std::span<const std::string_view> keys,
                              std::span<const std::string_view> args, DeadlineUs deadline_us) {
  SPOTCHECK_ASSERT(!keys.empty());  // a Redis Cluster routes the call by its keys
  SPOTCHECK_ASSERT(keys.size() <= kMaxKeysPerCall);
  for (const std::string_view key : keys) {
    SPOTCHECK_ASSERT(starts_with(key, _options.key_namespace));  // so in the namespace's slot
  }
  const std::string key_count = std::to_string(keys.size());
  std::vector<std::string_view> argv;
  argv.reserve(4 + keys.size() + args.size());
  argv.push_back("EVALSHA");
  argv.push_back(_script_sha1[static_cast<std::size_t>(script)]);
  argv.push_back(key_count);
  argv.insert(argv.end(), keys.begin(), keys.end());
  argv.push_back(_options.key_namespace);
  argv.insert(argv.end(), args.begin(), args.end());

  // Bound: one NOSCRIPT reload and kMaxRedirects MOVED redirects, so at most 2 + kMaxRedirects
  // attempts.
  int reloads = 0;
  int redirects = 0;
  for (int attempt = 0; attempt < 2 + kMaxRedirects; ++attempt) {
    ScriptCall out;
    const platform::TimeUs connect_us = timeout_for(deadline_us);
    if (connect_us <= 0) {
      out.failure = CallFailure::kNoTimeLeft;
      out.message = "the deadline passed before the request was sent";
      return out;
    }
    if (std::string error = _connection.ensure_connected(connect_us); !error.empty()) {
      out.failure = CallFailure::kNotSent;
      out.message = std::move(error);
      return out;
    }
    CallResult r = _connection.call(argv, timeout_for(deadline_us));
    if (r.failure != CallFailure::kNone) {
      out.failure = r.failure;
      out.message = std::move(r.message);
      return out;
    }
    SPOTCHECK_ASSERT(r.reply != nullptr);
    if (r.reply->type != REDIS_REPLY_ERROR) {
      out.reply = std::move(r.reply);
      return out;
    }
    const std::string_view error = reply_text(r.reply.get());
    if (starts_with(error, "MOVED ") && redirects < kMaxRedirects && follow_moved(error)) {
      ++redirects;  // not executed there: send it to the node that serves the slot now
      continue;
    }
    if (starts_with(error, "NOSCRIPT") && reloads++ == 0) {
      std::string load_error = reclaim_after_restart();
      if (load_error.empty()) {
        load_error = load_script(script);
      }
      if (!load_error.empty()) {
        out.failure = CallFailure::kNotSent;  // the script never ran
        out.message = std::move(load_error);
        return out;
      }
      argv[1] = _script_sha1[static_cast<std::size_t>(script)];
      continue;
    }
    out.refused = true;
    out.refused_unapplied = means_not_executed(error) || starts_with(error, "NOSCRIPT");
    out.message = "redis " + std::string(script_name(script)) + " script: " + std::string(error);
    return out;
  }
  SPOTCHECK_ASSERT(false && "unreachable: the retry loop returns");
  return ScriptCall{nullptr, CallFailure::kNotSent, false, false, "script retry loop ended"};
}

RedisSession::Answer RedisSession::find_key(std::string_view except, bool count_secret) {
  const std::string pattern = glob_escape(_options.key_namespace) + "*";
  const std::string secret_key = scan_secret_key(_options.key_namespace);
  std::string cursor = "0";
  for (std::size_t round = 0; round < kMaxScanRounds; ++round) {
    const std::array<std::string_view, 6> argv{"SCAN", cursor, "MATCH", pattern, "COUNT", kScanCount};
    CallResult r = command(argv);
    if (r.failure != CallFailure::kNone || r.reply->type != REDIS_REPLY_ARRAY || r.reply->elements != 2) {
      return Answer{false, "SCAN of namespace '" + _options.key_namespace + "' failed: " + describe_failure(r)};
    }
    const redisReply* keys = r.reply->element[1];
    for (std::size_t i = 0; i < keys->elements; ++i) {
      const std::string_view key = reply_text(keys->element[i]);
      if (key != except && (count_secret || key != secret_key)) {
        return Answer{true, {}};
      }
    }
    cursor = std::string(reply_text(r.reply->element[0]));
    if (cursor == "0") {
      return Answer{false, {}};
    }
  }
  return Answer{false, "SCAN of namespace '" + _options.key_namespace + "' did not finish"};
}

RedisSession::Answer RedisSession::namespace_is_empty() {
  const Answer found = find_key(marker_key(_options.key_namespace));
  return Answer{found.error.empty() && !found.yes, found.error};
}

RedisSession::NamespaceCheck RedisSession::check_namespace() {
  const std::string marker = marker_key(_options.key_namespace);
  const std::array<std::string_view, 2> get{"GET", marker};
  CallResult r = command(get);
  if (r.failure != CallFailure::kNone || r.reply->type == REDIS_REPLY_ERROR) {
    const std::string why = describe_failure(r);
    if (starts_with(why, "NOAUTH")) {
      return NamespaceCheck{_connection.url().redacted() + " requires a password (NOAUTH); put it in the URL", false};
    }
    return NamespaceCheck{"reading the namespace marker failed: " + why, false};
  }
  if (r.reply->type == REDIS_REPLY_STRING && reply_text(r.reply.get()) == kMarkerValue) {
    _found_marker = true;
    return NamespaceCheck{};
  }
  bool found = r.reply->type != REDIS_REPLY_NIL;  // a foreign key at the marker's name
  if (!found) {
    // Without the marker a scan secret is not the provider's either.
    const Answer other = find_key(marker, /*count_secret=*/true);
    if (!other.error.empty()) {
      return NamespaceCheck{other.error, false};
    }
    found = other.yes;
  }
  if (found && !_options.adopt_foreign_namespace) {
    return NamespaceCheck{"redis namespace '" + _options.key_namespace + "' on " + _connection.url().redacted() +
                              " holds keys this provider did not write; refusing to use it (set adopt_foreign_namespace "
                              "to override)",
                          false};
  }
  // An adopted namespace that holds keys stays unmarked: the marker would claim foreign keys (or
  // overwrite one at its name).
  return NamespaceCheck{{}, !found};
}

std::string RedisSession::write_marker() {
  // NX: never overwrite a key someone else wrote there meanwhile.
  const std::string marker = marker_key(_options.key_namespace);
  const std::array<std::string_view, 4> set{"SET", marker, kMarkerValue, "NX"};
  CallResult w = command(set);
  if (w.failure != CallFailure::kNone || w.reply->type == REDIS_REPLY_ERROR) {
    return "writing the namespace marker failed: " + describe_failure(w);
  }
  return {};
}

std::string RedisSession::claim_namespace() {
  const NamespaceCheck checked = check_namespace();
  if (!checked.error.empty()) {
    return checked.error;
  }
  return checked.write_marker ? write_marker() : std::string();
}

std::string RedisSession::reclaim_after_restart() {
  if (!_marked) {
    return {};  // an adopted namespace that held keys never carried the marker
  }
  const std::string marker = marker_key(_options.key_namespace);
  const std::array<std::string_view, 2> get{"GET", marker};
  CallResult r = command(get);
  if (r.failure != CallFailure::kNone || r.reply->type == REDIS_REPLY_ERROR) {
    return "reading the namespace marker after NOSCRIPT failed: " + describe_failure(r);
  }
  const bool kept = r.reply->type == REDIS_REPLY_STRING && reply_text(r.reply.get()) == kMarkerValue;
  if (!kept) {
    // The server lost the namespace (restarted without persistence, flushed): claim it again,
    // under the same rule as an open (only while it holds no key at all).
    if (std::string error = claim_namespace(); !error.empty()) {
      return "redis namespace '" + _options.key_namespace + "' lost its marker and cannot be claimed again: " + error;
    }
  }
  return load_scan_secret(/*keep_current=*/true);
}

std::string RedisSession::load_scan_secret(bool keep_current) {
  std::array<unsigned char, kScanSecretBytes> random{};
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
    return "no random bytes for the scan continuation secret";
  }
  const std::string key = scan_secret_key(_options.key_namespace);
  const std::string candidate = keep_current && !_scan_secret.empty()
                                    ? _scan_secret
                                    : std::string(reinterpret_cast<const char*>(random.data()), random.size());
  const std::array<std::string_view, 4> set{"SET", key, candidate, "NX"};
  CallResult w = command(set);
  if (w.failure != CallFailure::kNone || w.reply->type == REDIS_REPLY_ERROR) {
    return "writing the scan secret failed: " + describe_failure(w);
  }
  const std::array<std::string_view, 2> get{"GET", key};
  CallResult r = command(get);
  if (r.failure != CallFailure::kNone || r.reply->type != REDIS_REPLY_STRING || r.reply->len == 0) {
    return "reading the scan secret failed: " + describe_failure(r);
  }
  _scan_secret = std::string(reply_text(r.reply.get()));
  return {};
}

std::string RedisSession::scan_namespace(
    const std::function<std::string(const std::vector<std::string_view>& keys)>& page) {
  const std::string pattern = glob_escape(_options.key_namespace) + "*";
  std::string cursor = "0";
  for (std::size_t round = 0; round < kMaxScanRounds; ++round) {
    const std::array<std::string_view, 6> argv{"SCAN", cursor, "MATCH", pattern, "COUNT", kScanCount};
    CallResult r = command(argv);
    if (r.failure != CallFailure::kNone || r.reply->type != REDIS_REPLY_ARRAY || r.reply->elements != 2) {
      return "SCAN of namespace '" + _options.key_namespace + "' failed: " + describe_failure(r);
    }
    const redisReply* batch = r.reply->element[1];
    std::vector<std::string_view> keys;
    keys.reserve(batch->elements);
    for (std::size_t i = 0; i < batch->elements; ++i) {
      keys.push_back(reply_text(batch->element[i]));
      SPOTCHECK_ASSERT(starts_with(keys.back(), _options.key_namespace));
    }
    if (std::string error = page(keys); !error.empty()) {
      return error;
    }
    cursor = std::string(reply_text(r.reply->element[0]));
    if (cursor == "0") {
      return {};
    }
  }
  return "SCAN of namespace '" + _options.key_namespace + "' did not finish";
}

RedisSession::KeyList RedisSession::list_keys(std::size_t max_keys) {
  std::vector<std::string> keys;
  std::string error = scan_namespace([&](const std::vector<std::string_view>& page) -> std::string {
    for (const std::string_view key : page) {
      if (keys.size() >= max_keys) {
        return "namespace '" + _options.key_namespace + "' holds more than " + std::to_string(max_keys) + " keys";
      }
      keys.emplace_back(key);
    }
    return {};
  });
  std::sort(keys.begin(), keys.end());  // SCAN may return a key twice
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return KeyList{std::move(keys), std::move(error)};
}

std::string RedisSession::clear_namespace() {
  std::string error = scan_namespace([&](const std::vector<std::string_view>& page) -> std::string {
    if (page.empty()) {
      return {};
    }
    std::vector<std::string_view> unlink{"UNLINK"};
    unlink.insert(unlink.end(), page.begin(), page.end());
    CallResult u = command(unlink);
    if (u.failure != CallFailure::kNone || u.reply->type == REDIS_REPLY_ERROR) {
      return "UNLINK in namespace '" + _options.key_namespace + "' failed: " + describe_failure(u);
    }
    return {};
  });
  if (!error.empty()) {
    return error;
  }
  if (error = claim_namespace(); !error.empty()) {
    return error;
  }
  return load_scan_secret();
}

}  // namespace spotcheck::store::redis
