// How Redis tests find a server. The ctest fixture (CMakeLists.txt) starts one with
// scripts/redis-test-server, which writes its URL to a file in the build tree;
// SPOTCHECK_REDIS_URL_FILE names another file, SPOTCHECK_REDIS_URL overrides both.
// A Redis test never passes silently without a server: it FAILS, unless SPOTCHECK_ALLOW_NO_REDIS=1
// (then it is skipped).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "impl/store/redis/redis_stores.h"
#include "impl/store/redis/steady_clock.h"

namespace spotcheck::store::redis::testing {

// A store request's deadline when the test wants none.
inline constexpr DeadlineUs kNoDeadline = std::numeric_limits<DeadlineUs>::max();
// A raw connection's timeout in the provider tests.
inline constexpr platform::TimeUs kRawTimeoutUs = 5 * platform::kMicrosPerSecond;

// The shared test server's URL, or nullopt (with the reason in `why`).
std::optional<std::string> shared_server_url(std::string& why);
bool missing_redis_allowed();

// In a test body or SetUp: the URL, or FAIL/SKIP the test and return nullopt.
#define SPOTCHECK_REDIS_URL_OR_RETURN(url_variable)                                                  \
  std::string url_variable;                                                                          \
  {                                                                                                  \
    std::string why_no_redis;                                                                        \
    auto found_url = ::spotcheck::store::redis::testing::shared_server_url(why_no_redis);           \
    if (!found_url) {                                                                                \
      if (::spotcheck::store::redis::testing::missing_redis_allowed()) {                             \
        GTEST_SKIP() << "no redis server (SPOTCHECK_ALLOW_NO_REDIS=1): " << why_no_redis;            \
      }                                                                                              \
      FAIL() << "no redis server: " << why_no_redis << " (set SPOTCHECK_ALLOW_NO_REDIS=1 to skip)"; \
    }                                                                                                \
    url_variable = *found_url;                                                                       \
  }

// The cluster fixture's node URLs (ctest fixture redis_cluster: scripts/redis-test-server
// start-cluster writes them, one a line; SPOTCHECK_REDIS_CLUSTER_URLS_FILE names another file),
// or none with the reason in `why`.
struct ClusterNodes {
  std::vector<std::string> urls;
  std::string why;  // set iff urls is empty
};
ClusterNodes cluster_node_urls();

// In a test body or SetUp: the cluster's node URLs, or FAIL/SKIP the test and return.
#define SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls_variable)                                             \
  std::vector<std::string> urls_variable;                                                            \
  {                                                                                                  \
    auto found_nodes = ::spotcheck::store::redis::testing::cluster_node_urls();                      \
    if (found_nodes.urls.empty()) {                                                                  \
      if (::spotcheck::store::redis::testing::missing_redis_allowed()) {                             \
        GTEST_SKIP() << "no redis cluster (SPOTCHECK_ALLOW_NO_REDIS=1): " << found_nodes.why;        \
      }                                                                                              \
      FAIL() << "no redis cluster: " << found_nodes.why << " (set SPOTCHECK_ALLOW_NO_REDIS=1 to skip)"; \
    }                                                                                                \
    urls_variable = std::move(found_nodes.urls);                                                     \
  }

// A namespace no other test uses: "spotcheck-test:<pid>:<n>:".
std::string unique_namespace();
// The same, hash-tagged for a Redis Cluster: "{spotcheck-test:<pid>:<n>}:".
std::string unique_tagged_namespace();

// Options for a fresh namespace on `url` with short timeouts and a short scan TTL.
RedisStoreOptions test_options(const std::string& url, std::int64_t scan_ttl_ms = 1'000);

// A private redis-server (own port, own process, own data dir) for tests that pause, stop,
// restart or password-protect it; stopped (and its data dir removed) by the destructor.
class PrivateRedisServer {
 public:
  // Empty `error()` on success. `appendonly`: AOF on (fsync every second) from the start.
  explicit PrivateRedisServer(const std::string& password = "", bool appendonly = false);
  ~PrivateRedisServer();
  PrivateRedisServer(const PrivateRedisServer&) = delete;
  PrivateRedisServer& operator=(const PrivateRedisServer&) = delete;

  // Stops the server, keeping its port and data dir: SIGTERM (a clean shutdown, the AOF flushed)
  // or, with `kill`, SIGKILL (also when it is SIGSTOPped). "" or a one-line error.
  std::string down(bool kill = false);
  // Starts it again on the same port with the same data dir (and password); with `appendonly`
  // it loads and keeps writing the AOF, without it it starts empty. "" or a one-line error.
  std::string up(bool appendonly);
  // down() then up(). May run on another thread than the one that made the server.
  std::string restart(bool appendonly, bool kill = false);

  const std::string& url() const { return _url; }
  int pid() const { return _pid.load(); }
  int port() const { return _port; }
  const std::string& error() const { return _error; }

 private:
  std::string run_script(const std::string& arguments);

  std::string _state_dir;
  std::string _url;
  std::atomic<int> _pid{0};
  int _port = 0;
  std::string _error;
};

// A private three-node Redis Cluster (scripts/redis-test-server start-cluster in a temp state
// dir) for tests that change its layout (move a slot); stopped by the destructor.
class PrivateRedisCluster {
 public:
  PrivateRedisCluster();  // empty `error()` on success
  ~PrivateRedisCluster();
  PrivateRedisCluster(const PrivateRedisCluster&) = delete;
  PrivateRedisCluster& operator=(const PrivateRedisCluster&) = delete;

  const std::vector<std::string>& urls() const { return _urls; }
  const std::string& error() const { return _error; }

 private:
  std::string _state_dir;
  std::vector<std::string> _urls;
  std::string _error;
};

// Options for a fresh hash-tagged namespace `key_namespace` of the cluster node `url`.
RedisStoreOptions cluster_options(const std::string& url, const std::string& key_namespace,
                                  std::int64_t scan_ttl_ms = 1'000);

// One unconditional Put of `key`, expected to apply (a gtest failure otherwise): its StoreVersion.
StoreVersion must_put(LocationStore& store, const Key& key, const Bytes& value);

// A process-wide SteadyClock for the tests.
SteadyClock& test_clock();

}  // namespace spotcheck::store::redis::testing
