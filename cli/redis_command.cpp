// spotcheck redis --url URL --scenario NAME --duration S [--namespace NS] [--adopt-namespace]
//                 [--keep] [--seed N] [--nodes N]
#include "cli/redis_command.h"

#include <iostream>
#include <memory>

#include "scenarios/integration/integration_config.h"
#include "scenarios/integration/redis_cli_run.h"

namespace spotcheck::cli {

void add_redis_command(CLI::App& app, int& exit_code) {
  namespace it = scenarios::integration;
  auto options = std::make_shared<it::RedisCommandOptions>();
  auto seed = std::make_shared<std::uint64_t>(0);
  auto* cmd = app.add_subcommand(
      "redis", "Run an integration scenario: real Location nodes in real time against a Redis server\n"
               "Scenarios:\n" + it::integration_scenario_help());
  cmd->add_option("--url", options->url, "redis://[user:password@]host[:port][/db]")->capture_default_str();
  cmd->add_option("--scenario", options->scenario, "contention, lease-expiry or owner-change")->capture_default_str();
  cmd->add_option("--duration", options->duration_s, "Seconds of traffic (the run drains 1.5 s more)")
      ->capture_default_str();
  cmd->add_option("--namespace", options->key_namespace,
                  "Key namespace (default: a fresh spotcheck:it:<random>: removed afterwards)");
  cmd->add_flag("--adopt-namespace", options->adopt_namespace,
                "Run in a namespace that already holds keys (never removed afterwards)");
  cmd->add_flag("--keep", options->keep, "Leave the namespace in Redis after the run");
  auto* seed_option = cmd->add_option("--seed", *seed, "Workload seed (default: random, printed)");
  cmd->add_option("--nodes", options->nodes, "Nodes (default: the scenario's)");
  cmd->callback([options, seed, seed_option, &exit_code] {
    if (seed_option->count() > 0) {
      options->seed = *seed;
    }
    exit_code = it::run_redis_command(*options, std::cout, std::cerr);
  });
}

}  // namespace spotcheck::cli
