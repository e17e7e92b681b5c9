// Typed errors of the Location runtime. Every operation returns a value or one of these; nothing
// is guessed (spec §10) and nothing throws for an expected outcome.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/result.h"  // Result<T> = a value or a typed Error

namespace spotcheck::location {

enum class ErrorKind {
  kAdmissionClosed,      // past the local admission deadline or the host run was superseded (§5)
  kConflict,             // a store condition failed or a local precondition ruled the change out;
                         // nothing changed (§6.1)
  kGenerationExhausted,  // a generation counter holds 2^63-1 or would pass 2^63-2 (§3.1, §3.2)
  kCapacityFull,         // a bounded capacity counter would exceed its limit (§3.3, §4)
  kStoreError,           // the store refused or failed; nothing changed
  kIndeterminate,        // the outcome stays unknown after the bounded re-reads (§10)
  kRecordInvalid,        // a stored record did not decode (unknown recordVersion, corrupt bytes)
  kInvalidArgument,      // a framework-internal error found before calling the store (§6.1)
  kNoCandidate,          // placement found no Serving node with lease, weight and capacity (§4)
  kConfiguration,        // the host's configuration breaks a startup rule (§5): it does not start
};

std::string_view to_string(ErrorKind kind);

// Why a Conflict happened. Locally detected causes never reach the store.
enum class ConflictCause {
  kNone,
  kVersionChanged,       // the record's StoreVersion differs from the first-read one
  kAlreadyExists,        // Reserve found a record (ExpectAbsent failed)
  kMissing,              // the record does not exist
  kWrongState,           // e.g. Preserve/NewOwner/Delete on Reserved, Commit on Active
  kNotOwner,             // the record's (OwnerId, LeaseGeneration) is not the expected one
  kOwnerLeaseChanged,    // the caller's own owner lease record changed under the write
  kTargetLeaseInvalid,   // the target's owner lease is missing, expired or changed
  kTargetChanged,        // the target MeshNode descriptor changed since it was read
  kCounterChanged,       // the generation sequence counter moved (contention; retried)
  kOwnedByOtherHost,     // a descriptor is held by another host run with a valid lease
  kPreviousOwnerLive,    // recovery: the earlier host run's owner lease record changed (renewed)
};

std::string_view to_string(ConflictCause cause);

struct Error {
  ErrorKind kind = ErrorKind::kStoreError;
  ConflictCause cause = ConflictCause::kNone;
  std::string message;

  static Error conflict(ConflictCause cause, std::string message) {
    SPOTCHECK_ASSERT(cause != ConflictCause::kNone);
    return Error{ErrorKind::kConflict, cause, std::move(message)};
  }
  static Error of(ErrorKind kind, std::string message) {
    SPOTCHECK_ASSERT(kind != ErrorKind::kConflict);
    return Error{kind, ConflictCause::kNone, std::move(message)};
  }
};

// "<kind>[/<cause>]: <message>"
std::string describe(const Error& error);

// The value of an operation that returns nothing but success.
struct Done {};

}  // namespace spotcheck::location
