// Replay: every choice is read back from a decision log, each stream (and the scheduler) reading
// its own decisions in order, so a run's streams stay independent as in random search. When the
// run asks for something the log does not hold, or asks differently (a draw where the log holds a
// pick, a pick among another number of candidates, an index out of range), the run is refused
// once through `refuse`, naming the decision, and the fallback source answers from then on.
//
// kLenient (shrinking replays edited logs, replay/shrink/log_shrink.h): nothing is refused. A pick
// among another number of candidates, or out of range, takes the nearest index (the value, capped
// at count - 1); a draw where the log holds a pick, a pick where it holds a draw, or a stream whose
// decisions ran out is answered by the fallback source without consuming the log. A draw so
// answered continues the stream's own seeded sequence at the stream's position (the seeded values
// before it are skipped): a stream the log holds unedited goes on as the original run's would,
// and never repeats a value it already gave (an OwnerId, an OperationId).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/choice/choice_source.h"
#include "sim/choice/decision_log.h"

namespace spotcheck::sim {

enum class ReplayMode : std::uint8_t { kStrict, kLenient };

class ReplayingChoiceSource final : public ChoiceSource {
 public:
  ReplayingChoiceSource(std::shared_ptr<const DecisionLog> log, ChoiceSource& fallback,
                        std::function<void(std::string)> refuse, ReplayMode mode = ReplayMode::kStrict);
  std::uint64_t draw(Stream& stream) override;
  std::size_t pick(Stream& scheduler, std::span<const ReadyCandidate> ready) override;
  // Decisions of the log the run has not read (0 after a faithful replay of a whole run).
  std::size_t unread() const { return log_->size() - read_; }
  bool refused() const { return refused_; }

 private:
  // The next decision of `stream` if it is one with `count`; otherwise refuses and returns nothing.
  std::optional<std::uint64_t> next(Stream& stream, std::uint32_t count);
  std::uint64_t lenient_draw(Stream& stream);
  void refuse(std::string why);

  std::shared_ptr<const DecisionLog> log_;
  ChoiceSource* fallback_;
  std::function<void(std::string)> refuse_;
  std::vector<std::uint32_t> next_same_stream_;  // by decision: the next decision of its stream
  std::vector<std::uint32_t> first_of_stream_;   // by log stream: its first decision
  std::vector<std::uint32_t> cursor_by_id_;      // by Stream::id: its next decision (kEnd: none)
  std::vector<std::uint32_t> taken_by_id_;       // by Stream::id: decisions read so far
  std::vector<std::uint64_t> answered_by_id_;    // kLenient, by Stream::id: draws answered in all
  std::vector<std::uint64_t> seeded_by_id_;      // kLenient, by Stream::id: seeded values consumed
  std::size_t read_ = 0;
  bool refused_ = false;
  ReplayMode mode_;
};

}  // namespace spotcheck::sim
