// The spotcheck subcommands. Each add_* registers one subcommand on the app.
// Exit status: 0 passed, 1 a property was violated or the run failed, 2 bad input, 3 an internal
// error or a failed write (out of memory, disk full), 128 + N stopped by signal N (130 SIGINT,
// 143 SIGTERM) after writing what the finished work found.
#pragma once

#include <CLI/CLI.hpp>

namespace spotcheck::cli {

inline constexpr int kExitPassed = 0;
inline constexpr int kExitViolations = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;

// A user error (bad flag value, unknown scenario, unreadable file): one line, exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void add_run_command(CLI::App& app, int& exit_code);
void add_replay_command(CLI::App& app, int& exit_code);
void add_list_command(CLI::App& app, int& exit_code);
void add_shrink_command(CLI::App& app, int& exit_code);
void add_merge_command(CLI::App& app, int& exit_code);
void add_regress_command(CLI::App& app, int& exit_code);
void add_locate_command(CLI::App& app, int& exit_code);

}  // namespace spotcheck::cli
