#include "impl/location/creation/manager_types.h"

#include "impl/check/check.h"

namespace spotcheck::location::creation {

std::string_view to_string(CreateMode mode) {
  return mode == CreateMode::kCreate ? "create" : "get_or_create";
}

std::string_view to_string(ManagerErrorKind kind) {
  switch (kind) {
    case ManagerErrorKind::kAlreadyExists:
      return "already_exists";
    case ManagerErrorKind::kTypeMismatch:
      return "type_mismatch";
    case ManagerErrorKind::kDeadlineExceeded:
      return "deadline_exceeded";
    case ManagerErrorKind::kNotConfigured:
      return "not_configured";
    case ManagerErrorKind::kInvalidOperation:
      return "invalid_operation";
    case ManagerErrorKind::kNotFound:
      return "not_found";
    case ManagerErrorKind::kInvalidArgument:
      return "invalid_argument";
    case ManagerErrorKind::kUnavailable:
      return "unavailable";
    case ManagerErrorKind::kAdmissionClosed:
      return "admission_closed";
    case ManagerErrorKind::kGenerationExhausted:
      return "generation_exhausted";
    case ManagerErrorKind::kStaleGeneration:
      return "stale_generation";
    case ManagerErrorKind::kMoving:
      return "moving";
    case ManagerErrorKind::kRecordInvalid:
      return "record_invalid";
  }
  SPOTCHECK_ASSERT(false);
  return "";
}

std::string describe(const ManagerError& error) {
  return std::string(to_string(error.kind)) + ": " + error.message;
}

ManagerError from_location_error(const Error& error) {
  switch (error.kind) {
    case ErrorKind::kAdmissionClosed:
      return ManagerError{ManagerErrorKind::kAdmissionClosed, error.message};
    case ErrorKind::kGenerationExhausted:
      return ManagerError{ManagerErrorKind::kGenerationExhausted, error.message};
    case ErrorKind::kNoCandidate:
    case ErrorKind::kConfiguration:
      return ManagerError{ManagerErrorKind::kNotConfigured, error.message};
    case ErrorKind::kRecordInvalid:
      return ManagerError{ManagerErrorKind::kRecordInvalid, error.message};
    case ErrorKind::kInvalidArgument:
      return ManagerError{ManagerErrorKind::kInvalidArgument, error.message};
    case ErrorKind::kConflict:
    case ErrorKind::kCapacityFull:
    case ErrorKind::kStoreError:
    case ErrorKind::kIndeterminate:
      return ManagerError{ManagerErrorKind::kUnavailable, describe(error)};
  }
  SPOTCHECK_ASSERT(false);
  return ManagerError{};
}

}  // namespace spotcheck::location::creation
