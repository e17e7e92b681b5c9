#include "scenarios/synthetic/fifo_checker.h"

#include "impl/check/check.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "sim/events/harness_events.h"

namespace spotcheck::scenarios::synthetic {

std::optional<std::string> FifoChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind != kinds::kSyntheticRecv) {
    return std::nullopt;
  }
  sim::events::SyntheticRecv recv;
  if (const platform::Decoded decoded = platform::decode_event(event.fields, recv); !decoded.ok) {
    return "synthetic.recv #" + std::to_string(event.index) + " lacks field '" + decoded.missing + "'";
  }
  ++checked_;
  const auto key = std::make_tuple(event.node, recv.from, recv.nonce);
  auto [position, inserted] = last_seq_.try_emplace(key, recv.seq);
  if (inserted) {
    return std::nullopt;
  }
  const std::int64_t last = position->second;
  if (recv.seq <= last) {
    return "per-connection FIFO violated: node " + std::to_string(event.node) + " received seq " +
           std::to_string(recv.seq) + " from " + std::to_string(recv.from) + " after seq " + std::to_string(last);
  }
  position->second = recv.seq;
  SPOTCHECK_ASSERT_ABORT(position->second > last);
  return std::nullopt;
}

}  // namespace spotcheck::scenarios::synthetic
