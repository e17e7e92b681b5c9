#include "scenarios/synthetic/fifo_checker.h"

#include "impl/check/check.h"

namespace spotcheck::scenarios::synthetic {

std::optional<std::string> FifoChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind != "synthetic.recv") {
    return std::nullopt;
  }
  const std::optional<std::int64_t> from = event.number("from");
  const std::optional<std::int64_t> nonce = event.number("nonce");
  const std::optional<std::int64_t> seq = event.number("seq");
  if (!from || !nonce || !seq) {
    return std::string("synthetic.recv without from/nonce/seq");
  }
  ++checked_;
  const auto key = std::make_tuple(event.node, *from, *nonce);
  auto [position, inserted] = last_seq_.try_emplace(key, *seq);
  if (inserted) {
    return std::nullopt;
  }
  const std::int64_t last = position->second;
  if (*seq <= last) {
    return "per-connection FIFO violated: node " + std::to_string(event.node) + " received seq " +
           std::to_string(*seq) + " from " + std::to_string(*from) + " after seq " + std::to_string(last);
  }
  position->second = *seq;
  SPOTCHECK_ASSERT_ABORT(position->second > last);
  return std::nullopt;
}

}  // namespace spotcheck::scenarios::synthetic
