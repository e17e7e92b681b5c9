// Which of several entries runnable at the same virtual instant runs next. This is where
// interleavings are explored. A strategy sees only live candidates, with stable task and process
// ids (sim/scheduler/candidate.h), in the kernel's ready order. It must be a pure function of its
// own seeded state and its arguments (never of pointers, wall time or global state). Its pick
// reaches the kernel through the run's choice source (sim/choice/), which may log or replace it.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "impl/platform/random.h"
#include "sim/scheduler/candidate.h"

namespace spotcheck::sim {

class SchedulingStrategy {
 public:
  virtual ~SchedulingStrategy() = default;
  // `ready` has at least two live candidates; returns an index into it.
  virtual std::size_t pick(std::span<const ReadyCandidate> ready) = 0;
};

// Uniform random choice from the seeded sequence of the world's "scheduler" stream.
class UniformRandomStrategy final : public SchedulingStrategy {
 public:
  explicit UniformRandomStrategy(platform::Random& stream) : stream_(&stream) {}
  std::size_t pick(std::span<const ReadyCandidate> ready) override {
    return static_cast<std::size_t>(stream_->below(ready.size()));
  }

 private:
  platform::Random* stream_;
};

}  // namespace spotcheck::sim
