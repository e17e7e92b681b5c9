// The Redis side of an integration run: an admin session (its own connection, its own steady
// clock) that checks the server and the namespace before the run, gives the nodes their store
// options, reads Redis TIME to line the checkers' store clock up with the run's clock, audits the
// store afterwards and removes the namespace unless asked to keep it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "impl/platform/time.h"
#include "impl/store/redis/redis_stores.h"
#include "impl/store/redis/steady_clock.h"

namespace spotcheck::scenarios::integration {

struct RedisTargetOptions {
  std::string url = "redis://127.0.0.1:6379";
  // Empty: a fresh namespace "{spotcheck:it:<16 random hex>}:" is made up (hash-tagged, so it
  // also works on a Redis Cluster).
  std::string key_namespace;
  // Run in a namespace that already holds keys (foreign, or from an earlier run). Every key it
  // held before the run is left as it was: the marker is not written, cleanup removes only keys
  // the run added. One that holds an earlier run's data (the provider's marker) is kept whole.
  bool adopt_namespace = false;
  // Leave the namespace in Redis after the run.
  bool keep = false;
  std::int64_t connect_timeout_ms = 1'000;
  std::int64_t command_timeout_ms = 1'000;
  // Keys an adopted namespace may hold (they are listed to be left alone); more is refused.
  std::size_t adopt_keys_max = 100'000;
  // Called once the namespace has been checked, right before the first key is written (the
  // namespace name and the redacted URL), so a caller can print where the run writes.
  std::function<void(const std::string& key_namespace, const std::string& url_redacted)> before_first_write;
};

// What the namespace held when the run began.
enum class NamespaceStart {
  empty,        // nothing (or only the provider's marker and scan secret): removed afterwards
  foreign,      // adopted: keys spotcheck did not write; only the run's own keys are removed
  earlier_run,  // adopted: an earlier run's data (the marker is there); kept whole
};

// What finish() did with the namespace.
struct NamespaceCleanup {
  std::string outcome;    // one line: "removed (N keys)", "kept (--keep), N keys", "the run's 12 keys removed; ..."
  bool failed = false;    // removing the run's keys failed: `left` says what is there
  std::string left;       // "namespace 'ns' on url: N keys left" (set when failed)
  long removed_keys = 0;  // keys unlinked
  long left_keys = -1;    // keys under the namespace afterwards (-1: unknown)
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
  bool namespace_was_empty() const { return _start == NamespaceStart::empty; }
  NamespaceStart namespace_start() const { return _start; }
  // Keys the namespace held before the run (empty unless it was adopted).
  std::size_t keys_before() const { return _keys_before.size(); }
  // The admin session's Location Store (audits) and its clock (deadlines for it).
  store::LocationStore& location() { return *_stores.location; }
  const platform::Clock& clock() const { return _clock; }

  // The best of several Redis TIME reads, or why none could be had.
  struct TimeSampling {
    std::optional<RedisTimeSample> best;
    std::string error;
  };
  // Reads Redis TIME `samples` times and keeps the read with the shortest round trip; `now_us`
  // reads the caller's clock around each. No sample (and `error`) when a read fails.
  template <class NowFn>
  TimeSampling sample_time(NowFn now_us, int samples = 5) {
    TimeSampling out;
    for (int i = 0; i < samples; ++i) {
      RedisTimeSample sample;
      sample.before_us = now_us();
      const TimeRead read = redis_time_us();
      sample.after_us = now_us();
      if (!read.us.has_value()) {
        return TimeSampling{std::nullopt, read.error};
      }
      sample.redis_us = *read.us;
      if (!out.best.has_value() || sample.after_us - sample.before_us < out.best->after_us - out.best->before_us) {
        out.best = sample;
      }
    }
    return out;
  }

  // Unless `keep` was asked or the namespace held an earlier run's data, removes the keys of the
  // provider's layout (store::redis::is_provider_key) that the namespace did not hold before the
  // run: all of them for an empty namespace, only the run's own in an adopted one. A key that was
  // there before, or that the provider never writes, is left alone (and counted).
  NamespaceCleanup finish();

 private:
  RedisTarget(RedisTargetOptions options, store::redis::RedisStoreOptions store_options);
  struct TimeRead {
    std::optional<std::int64_t> us;  // Redis TIME in microseconds
    std::string error;
  };
  TimeRead redis_time_us();
  // Read-only checks of the namespace by the admin session, before anything is written.
  std::string check_namespace(store::redis::RedisSession& session);
  NamespaceCleanup remove_run_keys();
  // One listing of the namespace and the UNLINKs of the run's keys it found.
  struct RemovalRound {
    long kept_before = 0;  // keys the namespace held before the run
    long not_ours = 0;     // keys that appeared, at names the provider never writes
    long removed = 0;      // keys unlinked
    std::string error;     // empty unless listing or unlinking failed
  };
  RemovalRound remove_round();
  NamespaceCleanup removal_failed(const std::string& error, long removed);
  // Keys the namespace still holds (-1 and `error` when they could not be counted).
  struct KeysLeft {
    long count = -1;
    std::string error;
  };
  KeysLeft count_left();

  RedisTargetOptions _options;
  store::redis::RedisStoreOptions _store_options;
  store::redis::SteadyClock _clock;
  store::redis::RedisStores _stores;
  NamespaceStart _start = NamespaceStart::empty;
  std::vector<std::string> _keys_before;  // sorted; the keys cleanup leaves alone
};

// "{spotcheck:it:<16 hex>}:" (hash-tagged: one cluster slot) from a nondeterministic source (integration runs are not replayable).
std::string fresh_namespace();

}  // namespace spotcheck::scenarios::integration
