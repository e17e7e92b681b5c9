// How one Instance Spot request ended (spec §7.1), at the target and at the source: the content of
// command 51 (commands.h), so it lives with the wire. impl/location/instance/ names it through the
// using-declarations of instance_type.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spotcheck::location::messaging {

enum class InstanceOutcomeKind {
  kCreated,           // this target ran the factory, Ready was recorded and the first message ran
  kDelivered,         // the Spot was already Ready here (same generation): the message ran on it
  kRoute,             // Ready on another node: `owner_rid_hex` is the route (the source forwards once)
  kTypeMismatch,      // a User Spot, or an Instance Spot of another stable type, has this ID
  kNotFound,          // type omitted and no available Instance Spot type
  kInvalidOperation,  // type omitted and two or more available types; or a second route
  kNotConfigured,     // no node can take the Spot
  kFailed,            // the factory rejected or threw: the Creating row was cancelled
  kDeadlineExceeded,  // the deadline passed (e.g. waiting for another target's Creating)
  kStoreError,        // a store kept failing; nothing is guessed
  kSpotMoving,        // the owner-fence refusal: the owner's instance is closing (or moving); made
                      // BEFORE admission, so the message did not run
  kDataLost,          // §10: the stored first message this incarnation's row points at is permanently
                      // missing or other bytes; the error is recorded in the row, nothing is guessed
  kRequestTargetNotFound,  // the message was admitted and RAN, but a Close of the incarnation began before
                           // its reply left (the reply goes out on the instance's next turn): no
                           // instance is left to reply from. Framework 0.26 took it for a pre-admission
                           // route failure and resubmitted; 0.27 keeps it terminal
};

std::string_view to_string(InstanceOutcomeKind kind);
std::optional<InstanceOutcomeKind> parse_instance_outcome_kind(std::string_view text);

struct InstanceOutcome {
  InstanceOutcomeKind kind = InstanceOutcomeKind::kStoreError;
  std::uint64_t object_generation = 0;
  std::string owner_rid_hex;
  std::string stable_type;
  std::string message;

  bool ok() const { return kind == InstanceOutcomeKind::kCreated || kind == InstanceOutcomeKind::kDelivered; }
  friend bool operator==(const InstanceOutcome&, const InstanceOutcome&) = default;
};

}  // namespace spotcheck::location::messaging
