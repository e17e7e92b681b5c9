// The Redis side of an integration run: an admin session (its own connection, its own steady
// clock) that checks the server and the namespace before the run, gives the nodes their store
// options, reads Redis TIME to line the checkers' store clock up with the run's clock, audits the
// store afterwards and removes the namespace unless asked to keep it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "impl/platform/time.h"
#include "impl/store/redis/redis_stores.h"
#include "impl/store/redis/steady_clock.h"

namespace spotcheck::scenarios::integration {

struct RedisTargetOptions {
  std::string url = "redis://127.0.0.1:6379";
  // Empty: a fresh namespace "spotcheck:it:<16 random hex>:" is made up.
  std::string key_namespace;
  // Run in a namespace that already holds keys (foreign, or from an earlier run). It is then
  // never removed afterwards.
  bool adopt_namespace = false;
  // Leave the namespace in Redis after the run.
  bool keep = false;
  std::int64_t connect_timeout_ms = 1'000;
  std::int64_t command_timeout_ms = 1'000;
};

// Redis TIME read from the run's clock: the Redis clock reading lies between before_us and
// after_us of the caller's clock.
struct RedisTimeSample {
  std::int64_t redis_us = 0;  // Unix epoch microseconds
  platform::TimeUs before_us = 0;
  platform::TimeUs after_us = 0;
};

class RedisTarget {
 public:
  struct Opened {
    std::unique_ptr<RedisTarget> target;  // null on failure
    std::string error;                    // one line: malformed URL, unreachable, auth, namespace
  };
  static Opened open(const RedisTargetOptions& options);

  // Store options of one node's session: same server, same (already claimed) namespace.
  store::redis::RedisStoreOptions node_options() const;
  const std::string& key_namespace() const { return _options.key_namespace; }
  std::string url_redacted() const { return _stores.session->url().redacted(); }
  bool namespace_was_empty() const { return _was_empty; }
  // The admin session's Location Store (audits) and its clock (deadlines for it).
  store::LocationStore& location() { return *_stores.location; }
  const platform::Clock& clock() const { return _clock; }

  // Reads Redis TIME `samples` times and keeps the read with the shortest round trip; `now_us`
  // reads the caller's clock around each. nullopt (and `error`) when a read fails.
  template <class NowFn>
  std::optional<RedisTimeSample> sample_time(NowFn now_us, std::string& error, int samples = 5) {
    std::optional<RedisTimeSample> best;
    for (int i = 0; i < samples; ++i) {
      RedisTimeSample sample;
      sample.before_us = now_us();
      const std::optional<std::int64_t> redis_us = redis_time_us(error);
      sample.after_us = now_us();
      if (!redis_us.has_value()) {
        return std::nullopt;
      }
      sample.redis_us = *redis_us;
      if (!best.has_value() || sample.after_us - sample.before_us < best->after_us - best->before_us) {
        best = sample;
      }
    }
    return best;
  }

  // Removes the namespace (every key, the marker too) unless `keep` was asked or the namespace
  // held keys before the run. Returns what happened, one line ("removed", "kept (--keep)", ...).
  std::string finish();

 private:
  RedisTarget(RedisTargetOptions options, store::redis::RedisStoreOptions store_options);
  std::optional<std::int64_t> redis_time_us(std::string& error);
  std::string remove_namespace();

  RedisTargetOptions _options;
  store::redis::RedisStoreOptions _store_options;
  store::redis::SteadyClock _clock;
  store::redis::RedisStores _stores;
  bool _was_empty = false;
};

// "spotcheck:it:<16 hex>:" from a nondeterministic source (integration runs are not replayable).
std::string fresh_namespace();

}  // namespace spotcheck::scenarios::integration
