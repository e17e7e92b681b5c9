// Find and the generation rule of Destroy / Close (spec §7.2).
//
// find_ready() returns only the current Ready object (Active row) as a ref and never creates
// anything: Missing and Creating both read as "no object". match_generation() classifies the
// current row against a ref the caller holds: Destroy and Close act only on that generation.
#pragma once

#include <optional>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/creation/manager_types.h"

namespace spotcheck::location::find {

using creation::ManagerResult;
using creation::ObjectRef;

ManagerResult<std::optional<ObjectRef>> find_ready(AuthorityOps& authority, const AuthorityKey& key);

enum class GenerationMatch {
  kMissing,   // no record: Destroy/Close answer false
  kStale,     // another generation of the ID exists: stale-generation error
  kMoving,    // the ref's generation is being moved: typed moving error
  kCreating,  // the ref's generation is still Reserved (a ref is only made from a Ready row)
  kMatch,     // the ref's generation is the current Ready object
};
std::string_view to_string(GenerationMatch match);

GenerationMatch match_generation(const std::optional<AuthoritySnapshot>& current, const ObjectRef& ref);

// Relocation progress on the row (§8). This slice stores none: the authority record has no
// relocation fields yet, so nothing reads as moving until the relocation slice adds them.
bool relocation_in_progress(const records::AuthorityRecord& record);

}  // namespace spotcheck::location::find
