// spotcheck redis: one integration scenario of real impl/location nodes against a given Redis
// (docs/integration.md). Exit status 0 passed, 1 violation or failed audit, 2 bad input or an
// unusable server.
#pragma once

#include <CLI/CLI.hpp>

namespace spotcheck::cli {

void add_redis_command(CLI::App& app, int& exit_code);

}  // namespace spotcheck::cli
