#include "sim/choice/replaying_choice_source.h"

#include <limits>
#include <utility>

#include "impl/check/check.h"
#include "sim/random/stream.h"

namespace spotcheck::sim {
namespace {

constexpr std::uint32_t kEnd = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kNoCursor = kEnd - 1;

std::string asked(std::uint32_t count) {
  return count == 0 ? std::string("a draw") : "a pick among " + std::to_string(count);
}

}  // namespace

ReplayingChoiceSource::ReplayingChoiceSource(std::shared_ptr<const DecisionLog> log, ChoiceSource& fallback,
                                             std::function<void(std::string)> refuse, ReplayMode mode)
    : log_(std::move(log)), fallback_(&fallback), refuse_(std::move(refuse)), mode_(mode) {
  SPOTCHECK_ASSERT_ABORT(log_ != nullptr);
  SPOTCHECK_ASSERT_ABORT(refuse_ != nullptr);
  SPOTCHECK_ASSERT_ABORT(log_->size() < kNoCursor);
  const std::vector<Decision>& decisions = log_->decisions();
  next_same_stream_.assign(decisions.size(), kEnd);
  first_of_stream_.assign(log_->stream_names().size(), kEnd);
  std::vector<std::uint32_t> last_of_stream(log_->stream_names().size(), kEnd);
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    const std::uint32_t stream = decisions[i].stream;
    SPOTCHECK_ASSERT_ABORT(stream < first_of_stream_.size());
    const auto index = static_cast<std::uint32_t>(i);
    if (last_of_stream[stream] == kEnd) {
      first_of_stream_[stream] = index;
    } else {
      next_same_stream_[last_of_stream[stream]] = index;
    }
    last_of_stream[stream] = index;
  }
}

std::uint64_t ReplayingChoiceSource::draw(Stream& stream) {
  if (mode_ == ReplayMode::kLenient) {
    return lenient_draw(stream);
  }
  if (const auto value = next(stream, 0)) {
    return *value;
  }
  return fallback_->draw(stream);
}

std::uint64_t ReplayingChoiceSource::lenient_draw(Stream& stream) {
  const std::uint32_t id = stream.id();
  if (id >= answered_by_id_.size()) {
    answered_by_id_.resize(id + 1, 0);
    seeded_by_id_.resize(id + 1, 0);
  }
  std::uint64_t value = 0;
  if (const auto logged = next(stream, 0)) {
    value = *logged;
  } else {
    for (; seeded_by_id_[id] < answered_by_id_[id]; ++seeded_by_id_[id]) {
      stream.seeded().next_u64();  // skip to the stream's position
    }
    value = fallback_->draw(stream);
    ++seeded_by_id_[id];
  }
  ++answered_by_id_[id];
  return value;
}

std::size_t ReplayingChoiceSource::pick(Stream& scheduler, std::span<const ReadyCandidate> ready) {
  SPOTCHECK_ASSERT_ABORT(ready.size() >= 2);
  if (const auto value = next(scheduler, static_cast<std::uint32_t>(ready.size()))) {
    SPOTCHECK_ASSERT_ABORT(*value < ready.size());
    return static_cast<std::size_t>(*value);
  }
  return fallback_->pick(scheduler, ready);
}

std::optional<std::uint64_t> ReplayingChoiceSource::next(Stream& stream, std::uint32_t count) {
  if (refused_) {
    return std::nullopt;
  }
  if (stream.id() >= cursor_by_id_.size()) {
    cursor_by_id_.resize(stream.id() + 1, kNoCursor);
    taken_by_id_.resize(stream.id() + 1, 0);
  }
  std::uint32_t& cursor = cursor_by_id_[stream.id()];
  if (cursor == kNoCursor) {
    const auto found = log_->find_stream(stream.name());
    cursor = found ? first_of_stream_[*found] : kEnd;
  }
  const bool lenient = mode_ == ReplayMode::kLenient;
  if (cursor == kEnd) {
    if (lenient) {
      return std::nullopt;
    }
    refuse("decision log holds no decision " + std::to_string(taken_by_id_[stream.id()]) + " of stream '" +
           stream.name() + "'; the run asks for " + asked(count) + " after " + std::to_string(read_) +
           " decisions");
    return std::nullopt;
  }
  const Decision& decision = log_->decisions()[cursor];
  if (lenient && (decision.count == 0) != (count == 0)) {
    return std::nullopt;  // a draw for a pick or a pick for a draw: the log is not consumed
  }
  std::uint64_t value = decision.value;
  if (lenient && count != 0 && value >= count) {
    value = count - 1;
  }
  if (!lenient && decision.count != count) {
    refuse(describe_decision(*log_, cursor) + ": the run asks for " + asked(count));
    return std::nullopt;
  }
  if (count != 0 && value >= count) {
    refuse(describe_decision(*log_, cursor) + ": the index is out of range");
    return std::nullopt;
  }
  cursor = next_same_stream_[cursor];
  ++taken_by_id_[stream.id()];
  ++read_;
  return value;
}

void ReplayingChoiceSource::refuse(std::string why) {
  SPOTCHECK_ASSERT_ABORT(!refused_);
  refused_ = true;
  refuse_("replay refused: " + std::move(why));
}

}  // namespace spotcheck::sim
