#include "cli/decision_log_file.h"

#include <fstream>

#include "cli/commands.h"
#include "impl/json_guard/json_guard.h"
#include "reports/output_file.h"
#include "sim/choice/decision_log_text.h"

namespace spotcheck::cli {

std::shared_ptr<const sim::DecisionLog> read_decision_log_file(const std::string& path) {
  const std::string shown = json_guard::one_line(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError("--decision-log " + shown + ": cannot be read");
  }
  // At most the limit + 1 bytes: /dev/zero and fifos have no size to check up front.
  const json_guard::BoundedText text = json_guard::read_bounded(in, sim::kDecisionLogTextBytesMax);
  if (in.bad()) {
    throw UsageError("--decision-log " + shown + ": cannot be read");
  }
  if (text.too_large) {
    throw UsageError("--decision-log " + shown + ": larger than " + std::to_string(sim::kDecisionLogTextBytesMax) +
                     " bytes");
  }
  try {
    return std::make_shared<const sim::DecisionLog>(sim::parse_decision_log(text.text));
  } catch (const sim::DecisionLogError& error) {
    throw UsageError("--decision-log " + shown + ": " + json_guard::one_line(error.what()));
  }
}

void write_decision_log_file(const std::string& path, const sim::DecisionLog& log) {
  reports::write_output_file(path, "decision log", sim::decision_log_text(log));
}

}  // namespace spotcheck::cli
