// Seam: every raw choice a run makes. A named stream's 64-bit draw (network, each fault kind,
// workload, node randomness) and the scheduler's pick among the live ready candidates both come
// from the run's one ChoiceSource. Random search draws them from the seed (SeededChoiceSource);
// RecordingChoiceSource appends each one to a decision log; ReplayingChoiceSource reads a log back.
// PCT and exhaustive search are further implementations. A source must be a pure function of its
// own state and its arguments (never of pointers, wall time or global state).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "sim/random/stream.h"
#include "sim/scheduler/candidate.h"

namespace spotcheck::sim {

// draw(stream) is the stream's DrawSource seam (sim/random/stream.h).
class ChoiceSource : public DrawSource {
 public:
  // The scheduler's pick: an index into `ready` (at least two live candidates). `scheduler` is the
  // run's "scheduler" stream, under whose name the pick is logged.
  virtual std::size_t pick(Stream& scheduler, std::span<const ReadyCandidate> ready) = 0;
};

}  // namespace spotcheck::sim
