// The owner-cleanup sweep at host shutdown (spec §11, removeAllByOwner): reclaims the authority
// rows of THIS host run — (OwnerId, LeaseGeneration) both matching — and nothing else.
//
// It lists the authority key range as one same-point-in-time list; a row found there is only a
// candidate (§6.2). Each candidate is re-read, and deleted (row + its capacity, one request) only
// if its StoreVersion is still the one the list showed and it is still ours. Descriptors are never
// touched: a descriptor goes only by its own lease expiry and TAKEOVER.
#pragma once

#include <cstddef>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/config/location_config.h"
#include "impl/location/errors.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

struct SweepReport {
  std::size_t candidates = 0;  // rows of ours the list showed
  std::size_t deleted = 0;
  std::size_t changed = 0;  // re-read showed another version (or the row gone): left alone
  std::size_t failed = 0;   // the delete ended in an error (reported, not retried)
};

// Bounds of the listing.
inline constexpr std::size_t kSweepPagesMax = 1 << 16;
inline constexpr std::size_t kSweepRestartsMax = 3;

Result<SweepReport> sweep_owner_authority(store::LocationStore& store, platform::Platform& platform,
                                          const LocationConfig& config, OwnerLease& lease,
                                          AuthorityOps& authority);

}  // namespace spotcheck::location
