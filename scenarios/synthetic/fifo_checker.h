// Online checker of the synthetic invariant: on every connection (receiver, sender, sender's host
// run) the received sequence numbers strictly increase (gaps are fine: messages may be lost).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "sim/trace/observer.h"

namespace spotcheck::scenarios::synthetic {

class FifoChecker final : public sim::TraceObserver {
 public:
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;
  std::uint64_t checked() const { return checked_; }

 private:
  // (receiving node, sender routing id, sender's host-run nonce) -> last sequence number
  std::map<std::tuple<std::int32_t, std::int64_t, std::int64_t>, std::int64_t> last_seq_;
  std::uint64_t checked_ = 0;
};

}  // namespace spotcheck::scenarios::synthetic
