#include "sim/trace/divergence.h"

#include <algorithm>

namespace spotcheck::sim {

std::optional<Divergence> first_divergence(const Trace& left, const Trace& right) {
  const std::uint64_t common = std::min(left.size(), right.size());
  std::uint64_t index = 0;
  while (index < common && left.event_hash(index) == right.event_hash(index)) {
    ++index;
  }
  if (index == common && left.size() == right.size()) {
    return std::nullopt;
  }
  Divergence divergence;
  divergence.index = index;
  divergence.left = left.render(index);
  divergence.right = right.render(index);
  constexpr std::uint64_t kContextEvents = 5;
  const std::uint64_t context_first = index > kContextEvents ? index - kContextEvents : 0;
  divergence.report = "first divergence at event #" + std::to_string(index) + "\n";
  divergence.report += "shared context:\n" + left.render_range(context_first, index - context_first);
  divergence.report += "left:  " + divergence.left + "\n";
  divergence.report += "right: " + divergence.right + "\n";
  return divergence;
}

}  // namespace spotcheck::sim
