#include "scenarios/registry/divergence.h"

#include <algorithm>

#include "impl/check/check.h"

namespace spotcheck::scenarios {

namespace {

std::string line_at(const SeedOutcome& outcome, std::size_t index) {
  if (index >= outcome.event_lines.size()) {
    return "(end of trace)";
  }
  return outcome.event_lines[index];
}

}  // namespace

std::optional<Divergence> first_divergence(const SeedOutcome& first, const SeedOutcome& second) {
  SPOTCHECK_ASSERT_ABORT(first.event_hashes.size() == first.event_lines.size());
  SPOTCHECK_ASSERT_ABORT(second.event_hashes.size() == second.event_lines.size());
  const std::size_t common = std::min(first.event_hashes.size(), second.event_hashes.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (first.event_hashes[i] != second.event_hashes[i]) {
      return Divergence{i, line_at(first, i), line_at(second, i)};
    }
  }
  if (first.event_hashes.size() != second.event_hashes.size()) {
    return Divergence{common, line_at(first, common), line_at(second, common)};
  }
  if (first.trace_hash != second.trace_hash) {
    // Same per-event hashes but a different rolling hash: the fold itself is broken.
    return Divergence{common, "(trace hash " + std::to_string(first.trace_hash) + ")",
                      "(trace hash " + std::to_string(second.trace_hash) + ")"};
  }
  return std::nullopt;
}

}  // namespace spotcheck::scenarios
