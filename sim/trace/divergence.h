// The determinism proof: compare two traces event by event and name the first that differs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/trace/trace.h"

namespace spotcheck::sim {

struct Divergence {
  std::uint64_t index = 0;  // first event index whose hash differs (or where one trace ends)
  std::string left;         // that event rendered from the first trace ("<end of trace>" if none)
  std::string right;        // and from the second
  // Multi-line report with a few events of shared context before the divergence.
  std::string report;
};

// nullopt when both traces have the same events (same per-event hashes, same length).
std::optional<Divergence> first_divergence(const Trace& left, const Trace& right);

}  // namespace spotcheck::sim
