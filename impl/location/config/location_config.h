// Per-host owner lease timing (spec §5) and the bounds of the Location runtime's retries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/planted/planted_bugs.h"
#include "impl/platform/time.h"

namespace spotcheck::location {

using platform::TimeUs;

struct LocationConfig {
  // §5 defaults.
  TimeUs renew_interval_us = platform::seconds(5);
  TimeUs owner_lease_ttl_us = platform::seconds(15);
  TimeUs renew_timeout_us = platform::seconds(3);
  TimeUs fencing_margin_us = platform::seconds(5);

  // §7.3: how long a Ready location may be cached (never past the owner's last admission time),
  // and how long a previous owner forwards messages after a move (Message Follow). 0 disables
  // each; with both on, the cache must be at least 5 s shorter than the follow period.
  TimeUs route_cache_max_age_us = platform::seconds(15);
  TimeUs message_follow_duration_us = platform::seconds(30);

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

  // Deliberate protocol bugs a test plants (impl/planted/planted_bugs.h); empty in production.
  // Read only through SPOTCHECK_PLANTED, which is `false` when SPOTCHECK_PLANTED_BUGS is OFF.
  planted::PlantedBugs planted_bugs;
};

enum class ConfigErrorKind {
  kNotPositive,            // a timing value is zero or negative
  kTimingRelationViolated, // renew interval + renew timeout >= owner lease TTL - fencing margin
  kBoundNotPositive,       // a retry bound is zero
  kNotWholeMilliseconds,   // the TTL is stored in epoch milliseconds: it must be whole ms
  kRouteCacheRule,         // §7.3: a negative cache age or follow period, or both on and the cache
                           // not at least 5 s shorter than the follow period
  kStoreRegistration,      // §2: a store registered twice, an object role without a Location Store,
                           // or factories that need a Relocation Store without exactly one
};

// §7.3: with both the location cache and Message Follow on, the cache is at least this much
// shorter than the follow period.
inline constexpr TimeUs kRouteCacheFollowGapUs = platform::seconds(5);

struct ConfigError {
  ConfigErrorKind kind = ConfigErrorKind::kNotPositive;
  std::string message;
};

std::string_view to_string(ConfigErrorKind kind);

// Startup validation (§5): every value positive and
//   renew interval + renew timeout < owner lease TTL - owner lease fencing margin
// (equality is a violation); and §7.3: RouteCacheMaxAge and MessageFollowDuration not negative,
// and when both are on, RouteCacheMaxAge <= MessageFollowDuration - 5 s. nullopt when the
// configuration is usable.
std::optional<ConfigError> validate(const LocationConfig& config);

}  // namespace spotcheck::location
