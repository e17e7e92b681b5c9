#include "scenarios/integration/redis_cli_run.h"

#include <cmath>
#include <random>

#include "scenarios/integration/integration_run.h"

namespace spotcheck::scenarios::integration {

namespace {

int usage(std::ostream& err, const std::string& text) {
  err << "spotcheck redis: " << text << "\n";
  return kRedisExitUsage;
}

}  // namespace

int run_redis_command(const RedisCommandOptions& options, std::ostream& out, std::ostream& err) {
  IntegrationRequest request;
  if (!find_integration_scenario(options.scenario, request.scenario)) {
    std::string names;
    for (const std::string& name : integration_scenario_names()) {
      names += (names.empty() ? "" : ", ") + name;
    }
    return usage(err, "unknown integration scenario '" + options.scenario + "' (one of: " + names + ")");
  }
  if (!std::isfinite(options.duration_s) || options.duration_s <= 0.0 || options.duration_s > kRedisDurationMaxS) {
    return usage(err, "--duration must be in (0, " + std::to_string(static_cast<int>(kRedisDurationMaxS)) + "] seconds");
  }
  if (options.nodes > kRedisNodesMax) {
    return usage(err, "--nodes must be at most " + std::to_string(kRedisNodesMax));
  }
  if (options.nodes > 0) {
    request.scenario.node_count = options.nodes;
  }
  request.duration_us = static_cast<TimeUs>(std::llround(options.duration_s * 1e6));
  if (options.seed.has_value()) {
    request.seed = *options.seed;
  } else {
    std::random_device device;  // integration runs are not replayable; the seed is printed anyway
    request.seed = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }
  request.redis.url = options.url;
  request.redis.key_namespace = options.key_namespace;
  request.redis.adopt_namespace = options.adopt_namespace;
  request.redis.keep = options.keep;

  const IntegrationReport report = run_integration(request);
  if (!report.setup_error.empty()) {
    return usage(err, report.setup_error);
  }
  out << format_summary(report);
  if (!report.passed()) {
    err << "spotcheck redis: " << report.failure_reason() << "\n";
    return kRedisExitFailed;
  }
  return kRedisExitPassed;
}

}  // namespace spotcheck::scenarios::integration
