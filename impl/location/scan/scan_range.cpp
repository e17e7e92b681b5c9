#include "impl/location/scan/scan_range.h"

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/platform/marks.h"

namespace spotcheck::location {

namespace {

// One pass over the range, page by page. nullopt: the scan expired (start over from the first page).
Result<std::optional<ScannedRange>> scan_once(store::LocationStore& store, const store::Key& begin,
                                              const store::Key& end,
                                              const std::function<platform::TimeUs()>& deadline,
                                              const ScanBounds& bounds) {
  ScannedRange range;
  store::ScanRequest request{begin, end, std::nullopt, store::kMaxScanPageEntries};
  for (std::size_t page = 0; page < bounds.pages_max; ++page) {
    const store::ScanResult result = store.scan(request, deadline());
    if (const auto* error = std::get_if<store::StoreError>(&result)) {
      return Error::of(ErrorKind::kStoreError, std::string(bounds.what) + " page: " + store::to_string(error->kind));
    }
    if (std::holds_alternative<store::ScanExpired>(result)) {
      return std::optional<ScannedRange>();
    }
    const auto& scanned = std::get<store::ScanPage>(result);
    SPOTCHECK_ASSERT(scanned.entries.size() <= request.max_entries);
    if (range.pages == 0) {
      range.now_ms = scanned.now_ms;
    }
    ++range.pages;
    for (const store::ScanEntry& entry : scanned.entries) {
      SPOTCHECK_ASSERT(entry.key >= begin && entry.key < end);
      range.entries.push_back(entry);
    }
    if (!scanned.continuation.has_value()) {
      return std::optional<ScannedRange>(std::move(range));
    }
    SPOTCHECK_ASSERT(scanned.continuation->size() <= store::kMaxContinuationBytes);
    request.continuation = scanned.continuation;
  }
  return Error::of(ErrorKind::kStoreError, std::string(bounds.what) + " longer than the page bound");
}

}  // namespace

Result<ScannedRange> scan_range(store::LocationStore& store, platform::EventSink& events, const store::Key& begin,
                                const store::Key& end, const std::function<platform::TimeUs()>& deadline,
                                const ScanBounds& bounds) {
  SPOTCHECK_ASSERT(begin < end);
  SPOTCHECK_ASSERT(bounds.pages_max > 0);
  for (std::size_t restart = 0; restart <= bounds.restarts_max; ++restart) {
    Result<std::optional<ScannedRange>> pass = scan_once(store, begin, end, deadline, bounds);
    if (!pass.ok()) {
      return pass.error();
    }
    if (pass.value().has_value()) {
      return std::move(*std::move(pass).value());
    }
    platform::sometimes(events, platform::Mark::kScanExpiredRestart);
  }
  return Error::of(ErrorKind::kStoreError, std::string(bounds.what) + " kept expiring");
}

}  // namespace spotcheck::location
