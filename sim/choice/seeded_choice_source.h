// Random search: every draw is the stream's seed-derived value and every pick the scheduling
// strategy's (by default uniform over the "scheduler" stream's seeded sequence) — exactly the
// values a run had before the choice seam existed.
#pragma once

#include "impl/check/check.h"
#include "sim/choice/choice_source.h"
#include "sim/random/stream.h"
#include "sim/scheduler/strategy.h"

namespace spotcheck::sim {

class SeededChoiceSource final : public ChoiceSource {
 public:
  explicit SeededChoiceSource(SchedulingStrategy& strategy) : strategy_(&strategy) {}
  std::uint64_t draw(Stream& stream) override { return stream.seeded().next_u64(); }
  std::size_t pick(Stream& /*scheduler*/, std::span<const ReadyCandidate> ready) override {
    SPOTCHECK_ASSERT_ABORT(ready.size() >= 2);
    const std::size_t chosen = strategy_->pick(ready);
    SPOTCHECK_ASSERT_ABORT(chosen < ready.size());
    return chosen;
  }

 private:
  SchedulingStrategy* strategy_;
};

}  // namespace spotcheck::sim
