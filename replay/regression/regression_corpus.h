// The regression corpus (issue 12): trace files of failures the campaigns found and that were
// fixed, kept in the repository (tests/regressions/) and replayed in CI by `spotcheck regress DIR`.
//
// Each entry is a trace file (replay/trace_file/trace_file.h), usually a shrunk run
// (`spotcheck shrink --results tests/regressions`). Its decision log is the schedule that broke
// the protocol; it is replayed leniently (sim/choice/replaying_choice_source.h, kLenient), so a
// later build whose runs ask for other choices still follows it as far as it fits.
//   - The fixed run: the entry's scenario without its planted bugs, from the log: it must pass.
//   - When the scenario plants a bug (a model of the slip that was fixed), the run as recorded,
//     from the log: it must still fail the way the file says — else the entry no longer provokes
//     the bug and proves nothing (stale).
#pragma once

#include <string>
#include <vector>

#include "replay/trace_file/trace_file.h"

namespace spotcheck::replay {

struct RegressionVerdict {
  std::string file;
  bool passed = false;  // the fixed run passed and (if planted) the planted run still failed
  std::string what;     // one line: what was run and what it did
};

// Throws TraceFileError for a file that is not a trace file or holds no scenario it can run.
RegressionVerdict check_regression(const std::string& path, const TraceFile& file);

// The trace files of a corpus folder (*.trace.jsonl), sorted by name; at most kCorpusFilesMax.
inline constexpr std::size_t kCorpusFilesMax = 1000;
std::vector<std::string> corpus_files(const std::string& dir);

}  // namespace spotcheck::replay
