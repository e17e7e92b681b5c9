#include "impl/location/messaging/instance_outcome.h"

namespace spotcheck::location::messaging {

std::string_view to_string(InstanceOutcomeKind kind) {
  switch (kind) {
    case InstanceOutcomeKind::kCreated:
      return "created";
    case InstanceOutcomeKind::kDelivered:
      return "delivered";
    case InstanceOutcomeKind::kRoute:
      return "route";
    case InstanceOutcomeKind::kTypeMismatch:
      return "type_mismatch";
    case InstanceOutcomeKind::kNotFound:
      return "not_found";
    case InstanceOutcomeKind::kInvalidOperation:
      return "invalid_operation";
    case InstanceOutcomeKind::kNotConfigured:
      return "not_configured";
    case InstanceOutcomeKind::kFailed:
      return "failed";
    case InstanceOutcomeKind::kDeadlineExceeded:
      return "deadline_exceeded";
    case InstanceOutcomeKind::kSpotMoving:
      return "spot_moving";
    case InstanceOutcomeKind::kStoreError:
      return "store_error";
    case InstanceOutcomeKind::kDataLost:
      return "data_lost";
    case InstanceOutcomeKind::kRequestTargetNotFound:
      return "request_target_not_found";
  }
  return "unknown";
}

std::optional<InstanceOutcomeKind> parse_instance_outcome_kind(std::string_view text) {
  constexpr int kKinds = static_cast<int>(InstanceOutcomeKind::kRequestTargetNotFound) + 1;  // the last kind
  for (int i = 0; i < kKinds; ++i) {
    const auto kind = static_cast<InstanceOutcomeKind>(i);
    if (to_string(kind) == text) {
      return kind;
    }
  }
  return std::nullopt;
}

}  // namespace spotcheck::location::messaging
