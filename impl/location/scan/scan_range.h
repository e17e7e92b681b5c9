// A whole key range of the Location Store as one same-point-in-time list (spec §6.2, §7.4, §11):
// page by page under the store's continuation; when the store forgot the scan between pages
// (ScanExpired) the list starts over from the first page, a bounded number of times. A failed
// page ends the whole list — no partial list is ever used. Shared by the descriptor list (§4,
// §7.4) and the owner sweep (§11).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "impl/location/errors.h"
#include "impl/location/result.h"
#include "impl/platform/event_sink.h"
#include "impl/platform/time.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

// Every row of the range from one same-point-in-time scan.
struct ScannedRange {
  std::vector<store::ScanEntry> entries;
  std::size_t pages = 0;
  store::StoreNowMs now_ms = 0;  // StoreNow of the first page
};

struct ScanBounds {
  std::size_t pages_max = 0;     // pages per pass; a longer range is an error
  std::size_t restarts_max = 0;  // passes started over after ScanExpired
  std::string_view what;         // names the list in its errors, e.g. "descriptor list"
};

// `deadline` gives each page's store deadline as it is sent. Marks each start-over
// (Mark::kScanExpiredRestart).
Result<ScannedRange> scan_range(store::LocationStore& store, platform::EventSink& events, const store::Key& begin,
                                const store::Key& end, const std::function<platform::TimeUs()>& deadline,
                                const ScanBounds& bounds);

}  // namespace spotcheck::location
