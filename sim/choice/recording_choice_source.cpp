#include "sim/choice/recording_choice_source.h"

#include <limits>
#include <utility>

#include "impl/check/check.h"
#include "sim/random/stream.h"

namespace spotcheck::sim {
namespace {

constexpr std::uint32_t kNoLogStream = std::numeric_limits<std::uint32_t>::max();

}  // namespace

RecordingChoiceSource::RecordingChoiceSource(ChoiceSource& inner, DecisionLog& log,
                                             std::function<void(std::string)> refuse)
    : inner_(&inner), log_(&log), refuse_(std::move(refuse)) {
  SPOTCHECK_ASSERT_ABORT(refuse_ != nullptr);
}

std::uint64_t RecordingChoiceSource::draw(Stream& stream) {
  const std::uint64_t value = inner_->draw(stream);
  append(stream, value, 0);
  return value;
}

std::size_t RecordingChoiceSource::pick(Stream& scheduler, std::span<const ReadyCandidate> ready) {
  SPOTCHECK_ASSERT_ABORT(ready.size() >= 2);
  const std::size_t chosen = inner_->pick(scheduler, ready);
  SPOTCHECK_ASSERT_ABORT(chosen < ready.size());
  append(scheduler, chosen, static_cast<std::uint32_t>(ready.size()));
  return chosen;
}

void RecordingChoiceSource::append(Stream& stream, std::uint64_t value, std::uint32_t count) {
  if (full_) {
    return;
  }
  if (stream.id() >= log_stream_by_id_.size()) {
    log_stream_by_id_.resize(stream.id() + 1, kNoLogStream);
  }
  std::uint32_t& index = log_stream_by_id_[stream.id()];
  if (index == kNoLogStream) {
    index = log_->stream_index(stream.name());
  }
  if (!log_->append(Decision{value, index, count})) {
    full_ = true;
    refuse_("decision log bound exceeded (" + std::to_string(log_->max_decisions()) + " decisions)");
  }
}

}  // namespace spotcheck::sim
