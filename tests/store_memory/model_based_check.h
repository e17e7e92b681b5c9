// The model-based (stateful RapidCheck) check of the in-memory Location Store against
// model::StoreModel: random interleavings of reads, conditional writes with right, stale and
// made-up versions, deletes, bounded counters, multi-page scans with writes in between, and
// store time passing. Returns whether the property held for `max_success` random programs.
#pragma once

#include <cstdint>

#include "impl/store/memory/memory_options.h"

namespace spotcheck::store::memory::testing {

struct ModelBasedCheckParams {
  std::uint64_t seed = 0x5107c4ec;
  int max_success = 200;
  int max_size = 100;  // longest program, in commands
  TestOnlyFaults faults;
};

bool run_model_based_check(const ModelBasedCheckParams& params);

}  // namespace spotcheck::store::memory::testing
