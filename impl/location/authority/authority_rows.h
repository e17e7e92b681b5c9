// The authority rows of the whole authority range that a caller keeps, from one same-point-in-time
// list (scan_range: pages, start-overs after ScanExpired, never a partial list). Shared by the
// owner sweep (§11: the rows of this host run) and Instance Spot recovery (§7.1: the rows a dead
// host run of this node left). A row whose record does not decode is never kept (not ours to judge).
#pragma once

#include <functional>
#include <vector>

#include "impl/location/authority/authority_snapshot.h"
#include "impl/location/result.h"
#include "impl/location/scan/scan_range.h"
#include "impl/platform/event_sink.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

// In key order. Every kept row's key is an authority key (asserted).
Result<std::vector<AuthoritySnapshot>> list_authority_rows(
    store::LocationStore& store, platform::EventSink& events, const std::function<platform::TimeUs()>& deadline,
    const ScanBounds& bounds, const std::function<bool(const records::AuthorityRecord&)>& keep);

}  // namespace spotcheck::location
