// A decision log as text, for a file (spotcheck replay --decision-log-out / --decision-log):
//
//   spotcheck-decision-log 1
//   streams 2
//   scheduler
//   network
//   decisions 3
//   1 0 1234567890123      <- stream index, count (0: a raw draw), value
//   0 3 2                  <- a pick: index 2 among 3
//   1 0 42
//   end
//
// The reader is strict and bounded: every line is checked, counts are at most the log's limits,
// and a missing "end" (a truncated file) is refused. Errors are DecisionLogError, one line naming
// the line number.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/choice/decision_log.h"

namespace spotcheck::sim {

struct DecisionLogError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr std::size_t kDecisionLogTextBytesMax = 256u * 1024 * 1024;

std::string decision_log_text(const DecisionLog& log);
DecisionLog parse_decision_log(std::string_view text);

}  // namespace spotcheck::sim
