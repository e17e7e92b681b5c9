// The event vocabulary of the Location runtime (docs/events.md documents every field).
// Checkers match on these kinds; keep the two in step.
#pragma once

#include <string_view>

namespace spotcheck::location::events {

// Owner lease and admission (§3.1, §5).
inline constexpr std::string_view kLeaseRegistered = "lease.registered";
inline constexpr std::string_view kLeaseRegisterFailed = "lease.register_failed";
inline constexpr std::string_view kLeaseRenewed = "lease.renewed";
inline constexpr std::string_view kLeaseRenewFailed = "lease.renew_failed";
inline constexpr std::string_view kLeaseLost = "lease.lost";
inline constexpr std::string_view kLeaseAdmissionClosed = "lease.admission_closed";
inline constexpr std::string_view kLeaseAdmissionReopened = "lease.admission_reopened";
inline constexpr std::string_view kAdmissionRefused = "admission.refused";

// Generations (§3.2).
inline constexpr std::string_view kGenerationExhausted = "generation.exhausted";

// Authority operations (§6.1, §11).
inline constexpr std::string_view kAuthorityReserve = "authority.reserve";
inline constexpr std::string_view kAuthorityCommit = "authority.commit";
inline constexpr std::string_view kAuthorityAbort = "authority.abort";
inline constexpr std::string_view kAuthorityPreserve = "authority.preserve";
inline constexpr std::string_view kAuthorityNewOwner = "authority.new_owner";
inline constexpr std::string_view kAuthorityDelete = "authority.delete";
inline constexpr std::string_view kCapacityChanged = "capacity.changed";
inline constexpr std::string_view kStoreIndeterminate = "store.indeterminate";

// Descriptors and placement (§4).
inline constexpr std::string_view kDescriptorPublished = "descriptor.published";
inline constexpr std::string_view kDescriptorListRead = "descriptor.list_read";
inline constexpr std::string_view kPlacementChosen = "placement.chosen";
inline constexpr std::string_view kPlacementNoCandidate = "placement.no_candidate";

// Shutdown cleanup (§11).
inline constexpr std::string_view kSweepFinished = "sweep.finished";

}  // namespace spotcheck::location::events
