// What `spotcheck redis` does, without the flag parsing (cli/redis_command.cpp parses): check
// the options, run one integration scenario against the given Redis, print the summary.
//
// Exit status: 0 the run passed; 1 a property was violated, an audit failed or the run broke;
// 2 bad input or an unusable server (malformed URL, unreachable, authentication, a namespace
// holding foreign keys or earlier data) — then one line on `err`, starting "spotcheck redis: ".
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace spotcheck::scenarios::integration {

inline constexpr int kRedisExitPassed = 0;
inline constexpr int kRedisExitFailed = 1;
inline constexpr int kRedisExitUsage = 2;

struct RedisCommandOptions {
  std::string url = "redis://127.0.0.1:6379";
  std::string scenario = "contention";
  double duration_s = 5.0;        // traffic time; the run drains 1.5 s more
  std::string key_namespace;      // empty: a fresh spotcheck:it:<random>: namespace
  bool adopt_namespace = false;
  bool keep = false;              // leave the namespace in Redis
  std::optional<std::uint64_t> seed;  // empty: drawn at random (printed)
  std::uint32_t nodes = 0;        // 0: the scenario's node count
};

inline constexpr double kRedisDurationMaxS = 3'600.0;
inline constexpr std::uint32_t kRedisNodesMax = 64;

int run_redis_command(const RedisCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace spotcheck::scenarios::integration
