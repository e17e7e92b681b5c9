// Reading a creation's stored final result (spec §7 "Stored final result"): the same request —
// same source RID, source host run generation and OperationId — can re-read it until its
// retention ends (the original deadline + 5 minutes, by the StoreNow the provider returns). Past
// that it is gone: the reader deletes it (conditioned on its StoreVersion) and reports nothing.
#pragma once

#include <optional>

#include "impl/location/config/location_config.h"
#include "impl/location/creation/stored_records.h"
#include "impl/location/errors.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::creation {

// nullopt: no result (never stored, or its retention ended). kStoreError on a failed read,
// kRecordInvalid when the bytes are not a final result of this operation.
Result<std::optional<FinalResultRecord>> read_final_result(store::LocationStore& store,
                                                           platform::Platform& platform,
                                                           const OperationKey& key,
                                                           platform::TimeUs deadline_us);

}  // namespace spotcheck::location::creation
