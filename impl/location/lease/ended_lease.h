// Whether the owner lease of another host run has ended, as the Location Store shows it (spec
// §3.1, §3.3, §4, §5). A host run takes over what another host run holds — a descriptor row (§4),
// a row a dead run of its node left (§7.1 recovery) — only once that run's owner lease has ended,
// and writes under a condition that keeps it ended until the write applies: the lease key absent,
// or its record still at the version read (a late renew of that record makes the write conflict,
// never apply). Shared by DescriptorPublisher's takeover and InstanceTarget's recovery.
#pragma once

#include "impl/location/config/location_config.h"
#include "impl/location/errors.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/result.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

struct LeaseEnd {
  // `run`'s lease has ended: its key is absent, or its record is of another host run or expired
  // (ExpiresAt not after StoreNow).
  bool ended = false;
  // The condition a write that relies on it adds: ExpectAbsent, or ExpectVersion at the version read.
  store::Condition condition;
  store::StoreNowMs now_ms = 0;  // StoreNow of the read
};

// Reads `run`'s owner-lease key. An error: the key could not be read, or its bytes do not decode
// (bytes we cannot read are never taken as an ended lease).
Result<LeaseEnd> read_lease_end(store::LocationStore& store, platform::Platform& platform,
                                const LocationConfig& config, const HostRun& run);

}  // namespace spotcheck::location
