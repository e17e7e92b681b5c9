// spotcheck redis [--url URL | --url-file FILE] --scenario NAME --duration S [--namespace NS]
//                 [--adopt-namespace] [--keep] [--seed N] [--nodes N]
// The password may also come from REDISCLI_AUTH (docs/integration.md).
#include "cli/redis_command.h"

#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/number_text.h"
#include "impl/json_guard/json_guard.h"
#include "scenarios/integration/integration_config.h"
#include "cli/redis/redis_cli_run.h"

namespace spotcheck::cli {

namespace {

namespace it = scenarios::integration;

// The flags as given; the numbers are parsed here (plain decimal, in range), not by CLI11.
struct RedisFlags {
  std::string url;
  std::string duration;
  std::string seed;
  std::string nodes;
  std::string key_namespace;
};

int usage(const std::string& text) {
  std::cerr << "spotcheck redis: " << text << "\n";
  return kRedisExitUsage;
}

}  // namespace

void add_redis_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RedisCommandOptions>();
  auto flags = std::make_shared<RedisFlags>();
  auto* cmd = app.add_subcommand(
      "redis", "Run an integration scenario: real Location nodes in real time against a Redis server\n"
               "Scenarios:\n" + it::integration_scenario_help());
  auto* url_option = cmd->add_option(
      "--url", flags->url,
      "redis://[user:password@]host[:port][/db] (default " + std::string(kDefaultRedisUrl) +
          "); the password may instead come from REDISCLI_AUTH")
      ->type_name("URL");
  cmd->add_option("--url-file", options->url_file,
                  "Read the URL from this file (one line), so that no password sits on the command line")
      ->type_name("FILE");
  cmd->add_option("--scenario", options->scenario, "contention, lease-expiry or owner-change")->capture_default_str();
  auto* duration_option =
      cmd->add_option("--duration", flags->duration, "Seconds of traffic, (0, 3600] (default 5; the run drains 1.5 s more)")
          ->type_name("SECONDS");
  auto* namespace_option = cmd->add_option(
      "--namespace", flags->key_namespace, "Key namespace (default: a fresh {spotcheck:it:<random>}: removed afterwards)");
  cmd->add_flag("--adopt-namespace", options->adopt_namespace,
                "Run in a namespace that already holds keys (they are left as they were)");
  cmd->add_flag("--keep", options->keep, "Leave the namespace in Redis after the run");
  auto* seed_option =
      cmd->add_option("--seed", flags->seed, "Workload seed, decimal (default: random, printed)")->type_name("UINT64");
  auto* nodes_option =
      cmd->add_option("--nodes", flags->nodes,
                      "Nodes, 1.." + std::to_string(kRedisNodesMax) + " (default: the scenario's)")
          ->type_name("N");
  cmd->callback([options, flags, url_option, duration_option, namespace_option, seed_option, nodes_option, &exit_code] {
    if (url_option->count() > 0) {
      options->url = flags->url;
    }
    if (namespace_option->count() > 0) {
      options->key_namespace = flags->key_namespace;
    }
    if (duration_option->count() > 0) {
      const auto duration = plain_seconds(flags->duration);
      if (!duration.has_value() || *duration <= 0.0 || *duration > kRedisDurationMaxS) {
        exit_code = usage("--duration must be a decimal number of seconds in (0, " +
                          std::to_string(static_cast<int>(kRedisDurationMaxS)) + "], got '" + json_guard::one_line(flags->duration) + "'");
        return;
      }
      options->duration_s = *duration;
    }
    if (seed_option->count() > 0) {
      const auto seed = plain_decimal(flags->seed);
      if (!seed.has_value()) {
        exit_code = usage("--seed must be a plain decimal number 0..18446744073709551615, got '" + json_guard::one_line(flags->seed) + "'");
        return;
      }
      options->seed = *seed;
    }
    if (nodes_option->count() > 0) {
      const auto nodes = plain_decimal(flags->nodes);
      if (!nodes.has_value() || *nodes < 1 || *nodes > kRedisNodesMax) {
        exit_code = usage("--nodes must be a decimal number 1.." + std::to_string(kRedisNodesMax) + ", got '" +
                          json_guard::one_line(flags->nodes) + "'");
        return;
      }
      options->nodes = static_cast<std::uint32_t>(*nodes);
    }
    if (const char* auth = std::getenv("REDISCLI_AUTH"); auth != nullptr) {
      options->rediscli_auth = std::string(auth);
    }
    exit_code = run_redis_command(*options, std::cout, std::cerr);
  });
}

}  // namespace spotcheck::cli
