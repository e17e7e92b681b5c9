// A Redis Location/Relocation Store session: one connection, the loaded scripts, the claimed
// namespace. RedisLocationStore and RedisRelocationStore share one session (shared_ptr).
// Blocking, single-threaded: one session serves one thread (the integration platform runs a
// process's fibers on one thread).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/platform/clock.h"
#include "impl/store/redis/key_layout.h"
#include "impl/store/redis/lua_scripts.h"
#include "impl/store/redis/redis_connection.h"
#include "impl/store/spi/types.h"

namespace spotcheck::store::redis {

struct RedisStoreOptions {
  std::string url = "redis://127.0.0.1:6379";
  std::string key_namespace{kDefaultNamespace};
  std::int64_t connect_timeout_ms = 1'000;
  // Upper bound of one command; the request's deadline may shorten it.
  std::int64_t command_timeout_ms = 2'000;
  // How long an unused scan continuation stays valid (store time); old versions are kept at
  // most this long after the last page of a scan that may need them.
  std::int64_t scan_continuation_ttl_ms = 30'000;
  // Index members a scan page may examine once it holds an entry (bounds one script's run).
  std::uint32_t scan_examine_budget = 4'096;
  // Use a namespace that already holds keys this provider did not write (no marker key). Such a
  // namespace is never marked as the provider's: the marker is written only into a namespace that
  // holds no key at all, and a foreign key at the marker's name is never changed.
  bool adopt_foreign_namespace = false;
  // A session for read-only tools (`spotcheck locate`): every write, payload put and payload
  // delete through its stores is refused (StoreError kInvalidArgument) before it is sent. Reads
  // and scans run as usual (a scan keeps the provider's own bookkeeping keys, never a record).
  bool read_only = false;
};

// Outcome of one script call, with the meaning of a failure already decided.
struct ScriptCall {
  ReplyPtr reply;                              // set iff failure == kNone; never an error reply
  CallFailure failure = CallFailure::kNone;    // see CallFailure
  bool refused = false;                        // the server answered with an error (see message)
  bool refused_unapplied = false;              // ... one that means "not executed" (BUSY, OOM, ...)
  std::string message;
};

class RedisSession {
 public:
  struct Opened {
    std::shared_ptr<RedisSession> session;  // null on failure
    std::string error;                      // one line
  };
  // Runs once an open has checked the namespace, right before its first write (the marker, the
  // scan secret); nothing has been written by this open yet. A non-empty result aborts the open
  // with that error.
  using BeforeFirstWrite = std::function<std::string(RedisSession&)>;
  // Parses the URL, connects (AUTH, SELECT), on a Redis Cluster node refuses an untagged namespace
  // and moves to the master of the namespace's slot, loads the scripts, claims the namespace.
  static Opened open(const RedisStoreOptions& options, const platform::Clock& clock,
                     const BeforeFirstWrite& before_first_write = {});

  // EVALSHA with KEYS = `keys` (at least one, each under the namespace: a cluster routes the call
  // by them) and ARGV = [namespace, args...]; MOVED moves the connection to the slot's node and
  // resends (at most 3 times); NOSCRIPT (a restarted server, or a node the slot moved to) reclaims
  // a namespace the server lost (reclaim_after_restart), reloads the script and retries once.
  // The command timeout is min(command_timeout_ms, deadline_us - clock.now_us()).
  ScriptCall eval(ScriptId script, std::span<const std::string_view> keys, std::span<const std::string_view> args,
                  DeadlineUs deadline_us);

  // A yes/no question about the namespace: the answer, or `error` when it could not be asked.
  struct Answer {
    bool yes = false;
    std::string error;
  };
  // Every key under the namespace, sorted, each once; or `error`.
  struct KeyList {
    std::vector<std::string> keys;
    std::string error;
  };

  // Yes when no key under the namespace exists except the provider's marker (SCAN MATCH).
  Answer namespace_is_empty();
  // Removes every key under the namespace (SCAN MATCH ns* + UNLINK; never FLUSHALL), then claims
  // the namespace again. For tests and tools. Returns an empty string on success.
  std::string clear_namespace();
  // Every key under the namespace (SCAN MATCH). Fails (`error`) when the scan fails or more than
  // max_keys keys are there.
  KeyList list_keys(std::size_t max_keys);
  // A plain command for setup and maintenance (bounded by the command timeout); follows MOVED
  // like eval().
  CallResult command(std::span<const std::string_view> argv);

  const RedisStoreOptions& options() const { return _options; }
  // The refusal every write of a read-only session gets before it is sent
  // (RedisStoreOptions::read_only), or nullopt.
  std::optional<StoreError> refuse_if_read_only() const {
    if (!_options.read_only) {
      return std::nullopt;
    }
    return StoreError{StoreErrorKind::kInvalidArgument, "a read-only session writes nothing"};
  }
  const std::string& key_namespace() const { return _options.key_namespace; }
  // The namespace carried the provider's marker when this session opened it.
  bool found_marker() const { return _found_marker; }
  const std::string& scan_secret() const { return _scan_secret; }
  // The node the session talks to (on a cluster: the master of the namespace's slot).
  const RedisUrl& url() const { return _connection.url(); }
  // The server is a Redis Cluster node (INFO cluster at open).
  bool cluster() const { return _cluster; }
  RedisConnection& connection() { return _connection; }

  RedisSession(const RedisStoreOptions& options, RedisUrl url, const platform::Clock& clock);

 private:
  // SCAN MATCH namespace* to the end, handing each page's keys to `page` (which returns an error
  // text or ""); the first error ends the scan. Bounded by kMaxScanRounds.
  std::string scan_namespace(const std::function<std::string(const std::vector<std::string_view>& keys)>& page);
  platform::TimeUs timeout_for(DeadlineUs deadline_us) const;
  std::string load_script(ScriptId script);
  // Read-only: may this session use the namespace (`error` when not), and must it write the marker?
  struct NamespaceCheck {
    std::string error;
    bool write_marker = false;
  };
  NamespaceCheck check_namespace();
  std::string write_marker();
  std::string claim_namespace();
  // Redis Cluster (redis_session_cluster.cpp). At open, on a cluster node: refuses a namespace
  // without a hash tag, and moves the connection to the master of the namespace's slot. "" or a
  // one-line error. Standalone servers (cluster_enabled:0, or INFO refused) are left as they are.
  std::string route_to_namespace_node();
  // After a MOVED error reply (the slot lives on another node; nothing was executed): moves the
  // connection there. False when `error` is not a usable MOVED.
  bool follow_moved(std::string_view error);
  // SET NX a secret (the one in use with keep_current, else a random one), then adopt the stored one.
  std::string load_scan_secret(bool keep_current = false);
  // On NOSCRIPT (the server's script cache is empty: it restarted, or SCRIPT FLUSH): if the
  // namespace lost its marker (a restart without persistence), claims it again like an open, and
  // stores the scan secret in use again (SET NX) so every surviving client keeps sharing it.
  std::string reclaim_after_restart();
  // Is there any key under the namespace other than `except` (and the scan secret, unless
  // count_secret)?
  Answer find_key(std::string_view except, bool count_secret = false);

  RedisStoreOptions _options;
  const platform::Clock& _clock;
  RedisConnection _connection;
  std::array<std::string, kScriptCount> _script_sha1{};
  std::string _scan_secret;
  bool _found_marker = false;
  bool _marked = false;  // the namespace carried (or this open wrote) the marker
  bool _cluster = false;
};

}  // namespace spotcheck::store::redis
