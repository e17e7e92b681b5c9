#include "sim/choice/decision_log.h"

#include "impl/check/check.h"

namespace spotcheck::sim {

DecisionLog::DecisionLog(std::size_t max_decisions) : max_decisions_(max_decisions) {
  SPOTCHECK_ASSERT_ABORT(max_decisions_ > 0);
}

std::uint32_t DecisionLog::stream_index(std::string_view name) {
  SPOTCHECK_ASSERT_ABORT(!name.empty());
  if (const auto found = find_stream(name)) {
    return *found;
  }
  SPOTCHECK_ASSERT_ABORT(stream_names_.size() < kMaxStreams);
  stream_names_.emplace_back(name);
  return static_cast<std::uint32_t>(stream_names_.size() - 1);
}

std::optional<std::uint32_t> DecisionLog::find_stream(std::string_view name) const {
  // Bounded by kMaxStreams; called once per stream and run (sources cache the index).
  for (std::size_t i = 0; i < stream_names_.size(); ++i) {
    if (stream_names_[i] == name) {
      return static_cast<std::uint32_t>(i);
    }
  }
  return std::nullopt;
}

bool DecisionLog::append(Decision decision) {
  SPOTCHECK_ASSERT_ABORT(decision.stream < stream_names_.size());
  SPOTCHECK_ASSERT_ABORT(decision.count == 0 || decision.value < decision.count);
  if (decisions_.size() >= max_decisions_) {
    return false;
  }
  decisions_.push_back(decision);
  return true;
}

void DecisionLog::set_value(std::size_t index, std::uint64_t value) {
  SPOTCHECK_ASSERT_ABORT(index < decisions_.size());
  decisions_[index].value = value;
}

std::string describe_decision(const DecisionLog& log, std::size_t index) {
  SPOTCHECK_ASSERT_ABORT(index < log.size());
  const Decision& decision = log.decisions()[index];
  SPOTCHECK_ASSERT_ABORT(decision.stream < log.stream_names().size());
  std::string text = "decision " + std::to_string(index) + " (stream '" + log.stream_names()[decision.stream] + "', ";
  if (decision.count == 0) {
    text += "draw " + std::to_string(decision.value) + ")";
  } else {
    text += "pick " + std::to_string(decision.value) + " among " + std::to_string(decision.count) + ")";
  }
  return text;
}

}  // namespace spotcheck::sim
