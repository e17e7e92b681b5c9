// Decision log files of `spotcheck replay` (--decision-log-out FILE, --decision-log FILE): written
// whole or not at all (a temporary file renamed into place), read bounded and strictly; a file that
// cannot be read or is not a decision log is a UsageError (one line, exit 2).
#pragma once

#include <memory>
#include <string>

#include "sim/choice/decision_log.h"

namespace spotcheck::cli {

std::shared_ptr<const sim::DecisionLog> read_decision_log_file(const std::string& path);
// Throws reports::OutputError when the file cannot be written.
void write_decision_log_file(const std::string& path, const sim::DecisionLog& log);

}  // namespace spotcheck::cli
