// The values that tell one move and one target request apart (spec §8.1, §9.1).
//   RelocationId             a non-zero 128-bit random number naming one move; runtime-only.
//   TargetAttemptGeneration  a non-zero value telling a duplicate or earlier Restore sent to the
//                            same target from the current one. Compared for equality only, never
//                            ordered (so the type has no ordering and no arithmetic), and drawn
//                            at random — never derived from the target node's lifecycle
//                            generation, which cannot tell a second attempt at the same node from
//                            the first.
//   SourceFence              the source host run and the AuthorityOwnerGeneration it owns the
//                            object at: what the target's CAS is fenced by.
//   RestoreBinding           the three together: the Restore request, each chunk and the target's
//                            Location Store CAS carry the same binding, and anything that carries
//                            another is never joined to an assembly (§9.1).
// All drawn from platform::Random, never from a clock or an address.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/platform/random.h"

namespace spotcheck::location::relocation {

struct RelocationId {
  std::uint64_t high = 0;
  std::uint64_t low = 0;

  static RelocationId random(platform::Random& random);
  // 32 lowercase hex digits (as hex() writes them), or nullopt.
  static std::optional<RelocationId> parse(std::string_view hex);
  bool empty() const { return high == 0 && low == 0; }
  std::string hex() const;  // 32 lowercase hex characters

  friend auto operator<=>(const RelocationId&, const RelocationId&) = default;
};

class TargetAttemptGeneration {
 public:
  static TargetAttemptGeneration random(platform::Random& random);
  // A value received in a command; the caller has already refused zero (asserted here).
  static TargetAttemptGeneration of(std::uint64_t value);

  std::uint64_t value() const { return _value; }
  friend bool operator==(const TargetAttemptGeneration&, const TargetAttemptGeneration&) = default;

 private:
  explicit TargetAttemptGeneration(std::uint64_t value) : _value(value) {}
  std::uint64_t _value;
};

struct SourceFence {
  std::string owner_id;                      // the source host run's OwnerId
  std::uint64_t lease_generation = 0;        // and its LeaseGeneration
  std::uint64_t authority_owner_generation = 0;  // the object's, as the source owns it

  friend bool operator==(const SourceFence&, const SourceFence&) = default;
};

struct RestoreBinding {
  RelocationId relocation;
  TargetAttemptGeneration attempt;
  SourceFence fence;

  friend bool operator==(const RestoreBinding&, const RestoreBinding&) = default;
  // One line for events, errors and map keys: "<relocation hex>/<attempt>/<lease gen>/<owner
  // gen>/<OwnerId>" — the fixed-format fields first and the OwnerId last, so no two bindings share
  // a text (an empty RelocationId prints as 32 zeros).
  std::string text() const;
};

}  // namespace spotcheck::location::relocation
