#include "impl/location/objects/hosted_removal.h"

#include <optional>

#include "impl/check/check.h"
#include "impl/platform/marks.h"

namespace spotcheck::location::objects {

namespace {

// After a failed Delete: is the row still this instance's (same ObjectGeneration)? A conflict may
// be another removal of it that applied (two Closes of one ID at its owner): then the instance has
// no row and must never run again. A read that fails answers yes (nothing is guessed away).
bool still_this_row(AuthorityOps& authority, const AuthoritySnapshot& row) {
  Result<AuthorityRead> read = authority.read(row.key);
  if (!read.ok()) {
    return true;
  }
  const std::optional<AuthoritySnapshot>& current = read.value().current;
  return current.has_value() && current->record.object_generation == row.record.object_generation;
}

}  // namespace

Result<Done> remove_hosted(AuthorityOps& authority, ObjectHost* host, platform::EventSink& events,
                          const AuthoritySnapshot& row) {
  const ObjectKey key{row.key.kind, row.key.id};
  const std::uint64_t generation = row.record.object_generation;
  const bool held = host != nullptr && host->hold(key, generation);
  Result<Done> removed = authority.remove(row);
  if (!held) {
    return removed;
  }
  if (removed.ok() || removed.error_kind() == ErrorKind::kIndeterminate) {
    host->deactivate(key, generation);
  } else if (!still_this_row(authority, row)) {
    platform::sometimes(events, platform::Mark::kRemovalFoundRowGone);
    host->deactivate(key, generation);
  } else {
    host->release(key, generation);
  }
  return removed;
}

}  // namespace spotcheck::location::objects
