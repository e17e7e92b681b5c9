// The owner's Delete of an authority row whose instance this host run may host (spec §6.1 Delete,
// §7.2 Closing): the instance is held first, so no turn starts from then on and none can start
// after the Delete applied. Used by every owner-side removal of a row: Close (find/close.cpp) and
// the scenarios' owner deletes.
#pragma once

#include "impl/location/authority/authority_ops.h"
#include "impl/location/objects/object_host.h"
#include "impl/location/result.h"
#include "impl/platform/event_sink.h"

namespace spotcheck::location::objects {

// Deletes `row` (AuthorityOps::remove). With `host` hosting an instance of the row's
// ObjectGeneration: held before the Delete; deactivated when the Delete applied, when its outcome
// is unknown (nothing runs on an instance whose row may be gone), or when it failed and a re-read
// finds the row gone or of another generation (another removal applied: mark
// removal-found-row-gone); otherwise its hold is released (another removal's hold may remain:
// ObjectHost counts them). `host` may be null (no object runtime).
Result<Done> remove_hosted(AuthorityOps& authority, ObjectHost* host, platform::EventSink& events,
                          const AuthoritySnapshot& row);

}  // namespace spotcheck::location::objects
