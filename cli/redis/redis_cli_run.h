// What `spotcheck redis` does, without the flag parsing (cli/redis_command.cpp parses): check
// the options, run one integration scenario against the given Redis, print the summary.
//
// Exit status: 0 the run passed; 1 a property was violated, an audit failed or the run broke;
// 2 bad input or an unusable server (malformed URL, unreadable --url-file, unreachable,
// authentication, a namespace holding foreign keys or earlier data) — then one line on `err`,
// starting "spotcheck redis: "; 128 + n when signal n (SIGINT: 130, SIGTERM: 143) stopped it —
// the run's own keys are removed first, and the summary so far is printed.
//
// Before the first key is written it prints (and flushes) one line on `out`:
//   start: namespace '{spotcheck:it:<hex>}:' on redis://127.0.0.1:6379, scenario contention, seed 5, 4 nodes
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace spotcheck::cli {

inline constexpr int kRedisExitPassed = 0;
inline constexpr int kRedisExitFailed = 1;
inline constexpr int kRedisExitUsage = 2;

inline constexpr std::string_view kDefaultRedisUrl = "redis://127.0.0.1:6379";
// A --url-file holds one URL: anything bigger is not one.
inline constexpr std::size_t kRedisUrlFileMaxBytes = 4'096;

struct RedisCommandOptions {
  std::optional<std::string> url;  // --url; neither this nor url_file: kDefaultRedisUrl
  std::string url_file;            // --url-file: the URL is the file's one line
  // The value of REDISCLI_AUTH (the caller reads the environment): the password when the URL has
  // none, as redis-cli does.
  std::optional<std::string> rediscli_auth;
  std::string scenario = "contention";
  double duration_s = 5.0;        // traffic time; the run drains 1.5 s more
  std::optional<std::string> key_namespace;  // nullopt: a fresh {spotcheck:it:<random>}: namespace
  bool adopt_namespace = false;
  bool keep = false;              // leave the namespace in Redis
  std::optional<std::uint64_t> seed;  // empty: drawn at random (printed)
  std::optional<std::uint32_t> nodes;  // empty: the scenario's node count
  // Polled while the command runs; non-zero stops it like that signal. Empty: SIGINT and SIGTERM
  // (StopSignals, installed for the command's duration).
  std::function<int()> stop_requested;
};

inline constexpr double kRedisDurationMaxS = 3'600.0;
inline constexpr std::uint32_t kRedisNodesMax = 64;

int run_redis_command(const RedisCommandOptions& options, std::ostream& out, std::ostream& err);

// The URL to connect to, from --url, --url-file and REDISCLI_AUTH; `error` (one line, never the
// password) when they are unusable.
struct ResolvedRedisUrl {
  std::string url;  // holds the password: never print it (RedisUrl::redacted() for messages)
  std::string error;
};
ResolvedRedisUrl resolve_redis_url(const RedisCommandOptions& options);

}  // namespace spotcheck::cli
