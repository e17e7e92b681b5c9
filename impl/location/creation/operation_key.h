// The request identifier of a creation (spec §7): the source Node RID, the source host run
// generation (its LeaseGeneration) and the 128-bit OperationId. Its final result is stored under
//   "creation-result\0" + sha256_hex("creation-operation-terminal-v1\0{rid}\0{leaseGen}\0{op}")
// and the in-progress creation request under "creation-request\0{reservationId}" —
// framework-internal keys under prefixes no §3.4 public record uses. The reservationId is drawn
// from the whole request identifier too, so a caller that reuses its OperationId in a later host
// run (a new request, §7) never meets the earlier run's Creating row or request as its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/location/messaging/operation_id.h"
#include "impl/store/spi/types.h"

namespace spotcheck::location::creation {

inline constexpr std::string_view kTerminalFormat = "creation-operation-terminal-v1";
inline constexpr std::string_view kRequestFormat = "creation-request-v1";
inline constexpr std::string_view kReservationFormat = "creation-reservation-v1";

struct OperationKey {
  std::string source_rid_hex;
  std::uint64_t source_lease_generation = 0;
  messaging::OperationId op_id;

  // "creation-operation-terminal-v1\0{rid}\0{leaseGen}\0{op}"
  std::string preimage() const;
  store::Key result_key() const;
  // The pendingCreation.reservationId of this request: 32 lowercase hex digits, the first half of
  // sha256_hex("creation-reservation-v1\0{rid}\0{leaseGen}\0{op}").
  std::string reservation_id() const;
  friend bool operator==(const OperationKey&, const OperationKey&) = default;
};

// "creation-request\0{reservationId}"; the reservation id is identity text (no NUL).
store::Key creation_request_key(std::string_view reservation_id);
// The pendingCreation.requestContentReference naming that key: "creation-request/{reservationId}".
std::string creation_request_reference(std::string_view reservation_id);
// The key a reference names; empty when `reference` is not one.
store::Key key_of_request_reference(std::string_view reference);

}  // namespace spotcheck::location::creation
