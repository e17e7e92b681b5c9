// Whether the owner lease of an earlier host run has ended, as the Location Store shows it (spec
// §3.1, §3.3, §5). A recovery task replaces or deletes a row another host run left only once
// that host run's owner lease has ended; the condition it writes under keeps it ended until the
// write applies: the lease key absent, or the expired record still at the version read (a late
// renew of that record makes the recovery write conflict, never apply).
#pragma once

#include <optional>

#include "impl/location/config/location_config.h"
#include "impl/location/errors.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/result.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

// The condition a recovery write adds, or nullopt while `run`'s lease is still valid (its record
// of that generation with ExpiresAt after StoreNow). An error: the lease key could not be read.
Result<std::optional<store::Condition>> read_ended_lease(store::LocationStore& store, platform::Platform& platform,
                                                         const LocationConfig& config, const HostRun& run);

}  // namespace spotcheck::location
