// What the Manager's Create / GetOrCreate / Find / Destroy / Close return (spec §7, §7.2): refs,
// creation replies and typed errors. Nothing here throws for an expected outcome.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/check/check.h"
#include "impl/location/errors.h"
#include "impl/location/messaging/commands.h"
#include "impl/location/messaging/operation_id.h"
#include "impl/location/result.h"
#include "impl/records/keys.h"

namespace spotcheck::location::creation {

using messaging::OperationId;
using messaging::ReplyOutcome;

// ActorRef / SpotRef (§7.2): the global ID, ObjectGeneration, and where the object was at lookup
// time (MeshName, NodeRid). MeshName/NodeRid are never a message target or placement condition.
struct ObjectRef {
  records::AuthorityKind kind = records::AuthorityKind::kActor;
  std::string id;
  std::uint64_t object_generation = 0;  // non-zero, 1..2^63-2
  std::string mesh_name;
  std::string node_rid_hex;
  friend bool operator==(const ObjectRef&, const ObjectRef&) = default;
};
using ActorRef = ObjectRef;  // kind == actor
using SpotRef = ObjectRef;   // kind == spot

enum class CreateMode { kCreate, kGetOrCreate };
std::string_view to_string(CreateMode mode);  // create | get_or_create

// A creation that completed: Existing | Created | Rejected | Failed (§7), the ref for the first
// two, and the factory's optional application reply.
struct CreateReply {
  OperationId op_id;
  ReplyOutcome outcome = ReplyOutcome::kFailed;
  ObjectRef ref;            // valid for kExisting / kCreated
  std::string app_reply;
  std::string message;      // typed failure text for kFailed
  bool from_store = false;  // re-read from the stored final result, not a command-20 reply
};

enum class ManagerErrorKind {
  kAlreadyExists,        // Create found the ID Ready or Creating (§7 table)
  kTypeMismatch,         // the ID exists with another kind or stable type
  kDeadlineExceeded,     // the deadline passed first; the next call re-reads the store
  kNotConfigured,        // no node can take the object (no candidate)
  kInvalidOperation,     // e.g. the same call submitted twice, or InMesh omitted with two object-role Meshes
  kNotFound,             // InMesh names a Mesh this host does not take part in (§7)
  kInvalidArgument,      // an ID or type that breaks §3.3, a kind Create does not make
  kUnavailable,          // the store or the target failed; the creation was cancelled
  kAdmissionClosed,      // this host run may not start new work (§5)
  kGenerationExhausted,  // the ObjectGeneration sequence is exhausted (§3.2)
  kStaleGeneration,      // Destroy/Close: another generation of the ID exists (§7.2)
  kMoving,               // Destroy/Close: the object is being moved (§7.2)
  kRecordInvalid,        // a stored record did not decode
};
std::string_view to_string(ManagerErrorKind kind);

struct ManagerError {
  ManagerErrorKind kind = ManagerErrorKind::kUnavailable;
  std::string message;
};
std::string describe(const ManagerError& error);  // "<kind>: <message>"

// A value or a typed ManagerError: the runtime's one Result template (result.h).
template <class T>
using ManagerResult = Result<T, ManagerError>;

// A runtime Error (errors.h) as the Manager reports it.
ManagerError from_location_error(const Error& error);
// The text an event's `outcome` field carries for a Manager result.
template <class T>
std::string_view outcome_text(const ManagerResult<T>& result, std::string_view success) {
  return result.ok() ? success : to_string(result.error_kind());
}

}  // namespace spotcheck::location::creation
