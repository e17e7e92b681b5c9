#include "impl/location/errors.h"

namespace spotcheck::location {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kAdmissionClosed:
      return "admission_closed";
    case ErrorKind::kConflict:
      return "conflict";
    case ErrorKind::kGenerationExhausted:
      return "generation_exhausted";
    case ErrorKind::kCapacityFull:
      return "capacity_full";
    case ErrorKind::kStoreError:
      return "store_error";
    case ErrorKind::kIndeterminate:
      return "indeterminate";
    case ErrorKind::kRecordInvalid:
      return "record_invalid";
    case ErrorKind::kInvalidArgument:
      return "invalid_argument";
    case ErrorKind::kNoCandidate:
      return "no_candidate";
    case ErrorKind::kConfiguration:
      return "configuration";
  }
  return "unknown";
}

std::string_view to_string(ConflictCause cause) {
  switch (cause) {
    case ConflictCause::kNone:
      return "none";
    case ConflictCause::kVersionChanged:
      return "version_changed";
    case ConflictCause::kAlreadyExists:
      return "already_exists";
    case ConflictCause::kMissing:
      return "missing";
    case ConflictCause::kWrongState:
      return "wrong_state";
    case ConflictCause::kNotOwner:
      return "not_owner";
    case ConflictCause::kOwnerLeaseChanged:
      return "owner_lease_changed";
    case ConflictCause::kTargetLeaseInvalid:
      return "target_lease_invalid";
    case ConflictCause::kTargetChanged:
      return "target_changed";
    case ConflictCause::kPreviousOwnerLive:
      return "previous_owner_live";
    case ConflictCause::kCounterChanged:
      return "counter_changed";
    case ConflictCause::kOwnedByOtherHost:
      return "owned_by_other_host";
  }
  return "unknown";
}

std::string describe(const Error& error) {
  std::string text(to_string(error.kind));
  if (error.kind == ErrorKind::kConflict) {
    text += "/";
    text += to_string(error.cause);
  }
  text += ": ";
  text += error.message;
  return text;
}

}  // namespace spotcheck::location
