// Decorator: passes every choice of the inner source through and appends it to a decision log.
// When the log is full the run is refused once (through `refuse`) and the rest is not logged.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/choice/choice_source.h"
#include "sim/choice/decision_log.h"

namespace spotcheck::sim {

class RecordingChoiceSource final : public ChoiceSource {
 public:
  RecordingChoiceSource(ChoiceSource& inner, DecisionLog& log, std::function<void(std::string)> refuse);
  std::uint64_t draw(Stream& stream) override;
  std::size_t pick(Stream& scheduler, std::span<const ReadyCandidate> ready) override;

 private:
  void append(Stream& stream, std::uint64_t value, std::uint32_t count);

  ChoiceSource* inner_;
  DecisionLog* log_;
  std::function<void(std::string)> refuse_;
  std::vector<std::uint32_t> log_stream_by_id_;  // Stream::id -> DecisionLog stream index (kUnset)
  bool full_ = false;
};

}  // namespace spotcheck::sim
