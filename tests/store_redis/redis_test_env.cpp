#include "tests/store_redis/redis_test_env.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <variant>
#include <vector>

namespace spotcheck::store::redis::testing {

namespace {

// Numbers the namespaces of one process (tagged or not: never the same number twice).
std::atomic<int> namespace_counter{0};

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The non-empty lines of `path` (none when it cannot be read).
std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  // Bound: the file's lines.
  while (std::getline(in, line)) {
    if (!line.empty()) {
      lines.push_back(line);
    }
  }
  return lines;
}

std::string script_path() {
  const char* root = std::getenv("SPOTCHECK_SOURCE_DIR");
  return std::string(root != nullptr ? root : SPOTCHECK_SOURCE_DIR) + "/scripts/redis-test-server";
}

}  // namespace

bool missing_redis_allowed() {
  const char* allow = std::getenv("SPOTCHECK_ALLOW_NO_REDIS");
  return allow != nullptr && std::string(allow) == "1";
}

std::optional<std::string> shared_server_url(std::string& why) {
  if (const char* url = std::getenv("SPOTCHECK_REDIS_URL"); url != nullptr && *url != '\0') {
    return std::string(url);
  }
  const char* file = std::getenv("SPOTCHECK_REDIS_URL_FILE");
  if (file == nullptr || *file == '\0') {
    file = SPOTCHECK_REDIS_URL_FILE_DEFAULT;
  }
  std::string url = read_first_line(file);
  if (url.empty()) {
    why = std::string("no URL in ") + file +
          " (run through ctest, whose redis_server fixture starts redis-server, or set SPOTCHECK_REDIS_URL)";
    return std::nullopt;
  }
  return url;
}

ClusterNodes cluster_node_urls() {
  const char* file = std::getenv("SPOTCHECK_REDIS_CLUSTER_URLS_FILE");
  if (file == nullptr || *file == '\0') {
    file = SPOTCHECK_REDIS_CLUSTER_URLS_FILE_DEFAULT;
  }
  ClusterNodes nodes;
  nodes.urls = read_lines(file);
  if (nodes.urls.empty()) {
    nodes.why = std::string("no cluster node URLs in ") + file +
                " (run through ctest, whose redis_cluster fixture starts a three-node cluster)";
  }
  return nodes;
}

std::string unique_namespace() {
  return "spotcheck-test:" + std::to_string(::getpid()) + ":" + std::to_string(namespace_counter.fetch_add(1)) + ":";
}

std::string unique_tagged_namespace() {
  return "{spotcheck-test:" + std::to_string(::getpid()) + ":" + std::to_string(namespace_counter.fetch_add(1)) + "}:";
}

RedisStoreOptions test_options(const std::string& url, std::int64_t scan_ttl_ms) {
  RedisStoreOptions options;
  options.url = url;
  options.key_namespace = unique_namespace();
  options.connect_timeout_ms = 1'000;
  options.command_timeout_ms = 5'000;
  options.scan_continuation_ttl_ms = scan_ttl_ms;
  return options;
}

PrivateRedisServer::PrivateRedisServer(const std::string& password, bool appendonly) {
  std::error_code ec;
  const auto base = std::filesystem::temp_directory_path(ec);
  static std::atomic<int> instances{0};
  _state_dir = (base / ("spotcheck-redis-private-" + std::to_string(::getpid()) + "-" +
                        std::to_string(instances.fetch_add(1))))
                   .string();
  std::string arguments = "start '" + _state_dir + "'";
  if (!password.empty()) {
    arguments += " --requirepass '" + password + "'";
  }
  if (appendonly) {
    arguments += " --appendonly";
  }
  if (std::system((script_path() + " " + arguments + " >/dev/null").c_str()) != 0) {
    _error = "scripts/redis-test-server start failed";
    return;
  }
  _url = read_first_line(_state_dir + "/url");
  const std::string pid = read_first_line(_state_dir + "/pid");
  const std::string port = read_first_line(_state_dir + "/port");
  if (_url.empty() || pid.empty() || port.empty()) {
    _error = "redis-server did not start (is it installed?)";
    return;
  }
  _pid.store(std::stoi(pid));
  _port = std::stoi(port);
}

PrivateRedisServer::~PrivateRedisServer() {
  const std::string command = script_path() + " stop '" + _state_dir + "' >/dev/null 2>&1";
  [[maybe_unused]] const int rc = std::system(command.c_str());
  std::error_code ec;
  std::filesystem::remove_all(_state_dir, ec);
}

std::string PrivateRedisServer::run_script(const std::string& arguments) {
  const std::string command = script_path() + " " + arguments + " >/dev/null";
  if (std::system(command.c_str()) != 0) {
    return "scripts/redis-test-server " + arguments + " failed";
  }
  return {};
}

std::string PrivateRedisServer::down(bool kill) {
  return run_script("down '" + _state_dir + "'" + (kill ? " --kill" : ""));
}

std::string PrivateRedisServer::up(bool appendonly) {
  if (std::string error = run_script("up '" + _state_dir + "'" + (appendonly ? " --appendonly" : ""));
      !error.empty()) {
    return error;
  }
  const std::string pid = read_first_line(_state_dir + "/pid");
  if (pid.empty()) {
    return "redis-server did not start again";
  }
  _pid.store(std::stoi(pid));
  return {};
}

std::string PrivateRedisServer::restart(bool appendonly, bool kill) {
  if (std::string error = down(kill); !error.empty()) {
    return error;
  }
  return up(appendonly);
}

PrivateRedisCluster::PrivateRedisCluster() {
  std::error_code ec;
  const auto base = std::filesystem::temp_directory_path(ec);
  static std::atomic<int> instances{0};
  _state_dir = (base / ("spotcheck-redis-cluster-" + std::to_string(::getpid()) + "-" +
                        std::to_string(instances.fetch_add(1))))
                   .string();
  if (std::system((script_path() + " start-cluster '" + _state_dir + "' >/dev/null").c_str()) != 0) {
    _error = "scripts/redis-test-server start-cluster failed";
    return;
  }
  _urls = read_lines(_state_dir + "/urls");
  if (_urls.size() != 3) {
    _error = "the cluster did not start (is redis-server installed?)";
  }
}

PrivateRedisCluster::~PrivateRedisCluster() {
  const std::string command = script_path() + " stop-cluster '" + _state_dir + "' >/dev/null 2>&1";
  [[maybe_unused]] const int rc = std::system(command.c_str());
  std::error_code ec;
  std::filesystem::remove_all(_state_dir, ec);
}

SteadyClock& test_clock() {
  static SteadyClock clock;
  return clock;
}

RedisStoreOptions cluster_options(const std::string& url, const std::string& key_namespace, std::int64_t scan_ttl_ms) {
  RedisStoreOptions options = test_options(url, scan_ttl_ms);
  options.key_namespace = key_namespace;
  return options;
}

StoreVersion must_put(LocationStore& store, const Key& key, const Bytes& value) {
  const WriteResult result = store.write(WriteRequest{{}, {Put{key, value}}}, kNoDeadline);
  EXPECT_TRUE(std::holds_alternative<Applied>(result));
  return std::holds_alternative<Applied>(result) ? std::get<Applied>(result).outcomes.at(0).version : StoreVersion{};
}

}  // namespace spotcheck::store::redis::testing
