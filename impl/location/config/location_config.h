// Per-host owner lease timing (spec §5) and the bounds of the Location runtime's retries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "impl/platform/time.h"

namespace spotcheck::location {

using platform::TimeUs;

struct LocationConfig {
  // §5 defaults.
  TimeUs renew_interval_us = platform::seconds(5);
  TimeUs owner_lease_ttl_us = platform::seconds(15);
  TimeUs renew_timeout_us = platform::seconds(3);
  TimeUs fencing_margin_us = platform::seconds(5);

  // Bounds of the runtime's own loops (not spec values).
  // Attempts of one renew round before the round gives up until the next interval.
  std::uint32_t renew_attempts_max = 3;
  // Re-reads that try to resolve one Indeterminate write (§10).
  std::uint32_t indeterminate_rereads_max = 3;
  // Attempts of one operation when only the sequence counter or the caller's own lease record
  // moved under it (contention, not a semantic conflict).
  std::uint32_t contention_attempts_max = 8;
  // Deadline of one store request issued by an authority operation, descriptor or sweep step.
  TimeUs store_request_timeout_us = platform::seconds(3);

  // Deliberate protocol bugs, for tests that must see a campaign catch them. All off in
  // production; nothing but tests sets them.
  struct TestOnlyBugs {
    // OwnerLease::admit() lets work through past the local admission deadline (§5).
    bool admit_past_deadline = false;
    // Authority writes skip both fences of §5: no admission check before the write and no
    // condition on the writer's own owner lease record.
    bool unfenced_writes = false;
    // Delete and Abort leave the released capacity counted (§3.3: counters = sum of allocations).
    bool leak_capacity_on_release = false;
    // NewOwner keeps the previous AuthorityOwnerGeneration instead of raising it (§3.2).
    bool new_owner_keeps_owner_generation = false;
    // An authority conflict is retried after a 2 s wait, ignoring the request's deadline
    // (the shape of the retry loop framework 0.27 removed).
    bool retry_conflicts_past_deadline = false;
    // The Instance Spot source retries a request after an error that may follow admission
    // (no answer, stale route, not found, SpotMoving): re-reads the authority row and resubmits the
    // same OperationId to the refreshed route, or cold-activates a new incarnation, in a loop
    // under the deadline (framework 0.26's recoverStaleInstanceRoute; 0.27 removed it).
    bool retry_stale_instance_route = false;
  };
  TestOnlyBugs test_only_bugs;
};

enum class ConfigErrorKind {
  kNotPositive,            // a timing value is zero or negative
  kTimingRelationViolated, // renew interval + renew timeout >= owner lease TTL - fencing margin
  kBoundNotPositive,       // a retry bound is zero
  kNotWholeMilliseconds,   // the TTL is stored in epoch milliseconds: it must be whole ms
};

struct ConfigError {
  ConfigErrorKind kind = ConfigErrorKind::kNotPositive;
  std::string message;
};

// Startup validation (§5): every value positive and
//   renew interval + renew timeout < owner lease TTL - owner lease fencing margin.
// Equality is a violation. nullopt when the configuration is usable.
std::optional<ConfigError> validate(const LocationConfig& config);

}  // namespace spotcheck::location
