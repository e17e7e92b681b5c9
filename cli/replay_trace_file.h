// `spotcheck replay FILE` (cli/replay_trace_file.cpp).
#pragma once

#include <string>

namespace spotcheck::cli {

// Throws UsageError for a file that cannot be read or is not a trace file.
int replay_trace_file(const std::string& path);

}  // namespace spotcheck::cli
