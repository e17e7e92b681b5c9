#include "replay/diagram/clock_readings.h"

#include <algorithm>

#include "impl/platform/event_kinds.h"

namespace spotcheck::replay {

void ClockReadings::read(const TraceLine& line) {
  if (line.kind == kinds::kStoreApplied) {
    if (const auto store_ms = number_field(line, "store_now_ms")) {
      _store.push_back(Reading{line.time_us, *store_ms * 1000});
    }
    return;
  }
  if (line.node == "world") {
    return;
  }
  if (line.kind == kinds::kProcessStart) {
    ++_runs[line.node];
    return;
  }
  if (const auto now = number_field(line, "now_us")) {
    _local[{line.node, run_of(line.node)}].push_back(Reading{line.time_us, *now});
  }
}

std::int64_t ClockReadings::run_of(const std::string& node) const {
  const auto it = _runs.find(node);
  return it == _runs.end() ? 0 : it->second;
}

std::optional<std::int64_t> ClockReadings::through_nearest(const std::vector<Reading>& readings, std::int64_t clock_us,
                                                           std::int64_t near_us) {
  if (readings.empty()) {
    return std::nullopt;
  }
  // Readings are in trace order, so by virtual time.
  auto at = std::lower_bound(readings.begin(), readings.end(), near_us,
                             [](const Reading& r, std::int64_t t) { return r.virtual_us < t; });
  if (at == readings.end() || (at != readings.begin() && near_us - (at - 1)->virtual_us < at->virtual_us - near_us)) {
    --at;
  }
  return at->virtual_us + (clock_us - at->clock_us);
}

std::optional<std::int64_t> ClockReadings::virtual_of_local(const std::string& node, std::int64_t run,
                                                            std::int64_t local_us, std::int64_t near_us) const {
  const auto it = _local.find({node, run});
  return it == _local.end() ? std::nullopt : through_nearest(it->second, local_us, near_us);
}

std::optional<std::int64_t> ClockReadings::virtual_of_store_ms(std::int64_t store_ms, std::int64_t near_us) const {
  return through_nearest(_store, store_ms * 1000, near_us);
}

}  // namespace spotcheck::replay
