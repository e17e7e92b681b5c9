#include "impl/location/find/find.h"

#include "impl/check/check.h"
#include "impl/location/creation/creation_client.h"

namespace spotcheck::location::find {

ManagerResult<std::optional<ObjectRef>> find_ready(AuthorityOps& authority, const AuthorityKey& key) {
  Result<AuthorityRead> read = authority.read(key);
  if (!read.ok()) {
    return creation::from_location_error(read.error());
  }
  const std::optional<AuthoritySnapshot>& current = read.value().current;
  if (!current.has_value() || current->record.allocation.state != records::AllocationState::kActive) {
    return std::optional<ObjectRef>{};  // Missing and Creating are not an object (never cached)
  }
  ObjectRef ref = creation::ref_of(*current);
  SPOTCHECK_ASSERT(ref.object_generation != 0);
  return std::optional<ObjectRef>{std::move(ref)};
}

std::string_view to_string(GenerationMatch match) {
  switch (match) {
    case GenerationMatch::kMissing:
      return "missing";
    case GenerationMatch::kStale:
      return "stale_generation";
    case GenerationMatch::kMoving:
      return "moving";
    case GenerationMatch::kCreating:
      return "creating";
    case GenerationMatch::kMatch:
      return "match";
  }
  SPOTCHECK_ASSERT(false);
  return "";
}

bool relocation_in_progress(const records::AuthorityRecord& record) {
  static_cast<void>(record);
  return false;
}

GenerationMatch match_generation(const std::optional<AuthoritySnapshot>& current, const ObjectRef& ref) {
  if (!current.has_value()) {
    return GenerationMatch::kMissing;
  }
  SPOTCHECK_ASSERT(current->key.kind == ref.kind && current->key.id == ref.id);
  if (current->record.object_generation != ref.object_generation) {
    return GenerationMatch::kStale;
  }
  if (current->record.allocation.state == records::AllocationState::kReserved) {
    return GenerationMatch::kCreating;
  }
  if (relocation_in_progress(current->record)) {
    return GenerationMatch::kMoving;
  }
  return GenerationMatch::kMatch;
}

}  // namespace spotcheck::location::find
