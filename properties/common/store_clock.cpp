#include "properties/common/store_clock.h"

#include "impl/platform/event_kinds.h"
#include "properties/common/read_event.h"
#include "sim/events/sim_events.h"

namespace spotcheck::properties {

void StoreClock::observe(const sim::TraceEvent& event) {
  if (event.kind != kinds::kStoreClockJumped) {
    return;
  }
  const auto read = read_event<sim::events::StoreClockJumped>(event);
  if (!read.ok() || read.event.server != sim::events::kLocationStoreServer) {
    return;
  }
  const std::int64_t before = jumps.empty() ? 0 : jumps.back().second;
  jumps.emplace_back(event.time_us, before + read.event.by_ms);
}

std::int64_t StoreClock::offset_at(platform::TimeUs virtual_us) const {
  std::int64_t offset = 0;
  for (const auto& [at_us, total_ms] : jumps) {
    if (at_us > virtual_us) {
      break;
    }
    offset = total_ms;
  }
  return offset;
}

}  // namespace spotcheck::properties
