// spotcheck regress DIR: the regression corpus (replay/regression/regression_corpus.h) replayed on
// this build: every trace file of DIR, its fixed run must pass and, if it plants a bug, its planted
// run must still fail as recorded. Exit 0 all held, 1 a regression or a stale entry, 2 bad input
// (no such folder, no trace file in it, a file that is not a trace file).
#include <iostream>

#include "cli/commands.h"
#include "replay/regression/regression_corpus.h"

namespace spotcheck::cli {

namespace {

int regress(const std::string& dir) {
  std::vector<std::string> files;
  try {
    files = replay::corpus_files(dir);
  } catch (const replay::TraceFileError& e) {
    throw UsageError(e.what());
  }
  if (files.empty()) {
    throw UsageError("'" + dir + "' holds no trace file (*.trace.jsonl)");
  }
  std::cout << "regression corpus " << dir << ": " << files.size() << " trace file(s)\n";
  std::size_t failed = 0;
  for (const std::string& path : files) {
    replay::RegressionVerdict verdict;
    try {
      verdict = replay::check_regression(path, replay::read_trace_file(path));
    } catch (const replay::TraceFileError& e) {
      throw UsageError(path + ": " + e.what());
    }
    failed += verdict.passed ? 0 : 1;
    std::cout << (verdict.passed ? "  ok    " : "  FAIL  ") << path << ": " << verdict.what << "\n";
  }
  std::cout << (failed == 0 ? "every entry holds\n" : std::to_string(failed) + " entr(y/ies) failed\n");
  return failed == 0 ? kExitPassed : kExitViolations;
}

}  // namespace

void add_regress_command(CLI::App& app, int& exit_code) {
  auto dir = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("regress", "Replay the regression corpus: fixed failures must stay fixed");
  cmd->add_option("dir", *dir, "A folder of trace files (tests/regressions)")->required();
  cmd->callback([dir, &exit_code] { exit_code = regress(*dir); });
}

}  // namespace spotcheck::cli
