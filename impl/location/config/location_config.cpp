#include "impl/location/config/location_config.h"

namespace spotcheck::location {

namespace {

std::optional<ConfigError> require_positive(TimeUs value_us, const char* name) {
  if (value_us > 0) {
    return std::nullopt;
  }
  return ConfigError{ConfigErrorKind::kNotPositive,
                     std::string(name) + " must be positive, got " + std::to_string(value_us) +
                         " us"};
}

// §7.3: 0 disables the cache or Message Follow; with both on, the cache is at least 5 s shorter.
std::optional<ConfigError> check_route_cache(const LocationConfig& config) {
  if (config.route_cache_max_age_us < 0 || config.message_follow_duration_us < 0) {
    return ConfigError{ConfigErrorKind::kRouteCacheRule,
                       "RouteCacheMaxAge and MessageFollowDuration must not be negative (0 disables)"};
  }
  if (config.route_cache_max_age_us == 0 || config.message_follow_duration_us == 0) {
    return std::nullopt;
  }
  if (config.route_cache_max_age_us > config.message_follow_duration_us - kRouteCacheFollowGapUs) {
    return ConfigError{ConfigErrorKind::kRouteCacheRule,
                       "RouteCacheMaxAge (" + std::to_string(config.route_cache_max_age_us) +
                           " us) must be at least 5 s shorter than MessageFollowDuration (" +
                           std::to_string(config.message_follow_duration_us) + " us)"};
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(ConfigErrorKind kind) {
  switch (kind) {
    case ConfigErrorKind::kNotPositive:
      return "not_positive";
    case ConfigErrorKind::kTimingRelationViolated:
      return "timing_relation";
    case ConfigErrorKind::kBoundNotPositive:
      return "bound_not_positive";
    case ConfigErrorKind::kNotWholeMilliseconds:
      return "not_whole_milliseconds";
    case ConfigErrorKind::kRouteCacheRule:
      return "route_cache_rule";
    case ConfigErrorKind::kStoreRegistration:
      return "store_registration";
  }
  return "unknown";
}

std::optional<ConfigError> validate(const LocationConfig& config) {
  if (auto e = require_positive(config.renew_interval_us, "renew interval")) {
    return e;
  }
  if (auto e = require_positive(config.owner_lease_ttl_us, "owner lease TTL")) {
    return e;
  }
  if (auto e = require_positive(config.renew_timeout_us, "renew timeout")) {
    return e;
  }
  if (auto e = require_positive(config.fencing_margin_us, "owner lease fencing margin")) {
    return e;
  }
  if (auto e = require_positive(config.store_request_timeout_us, "store request timeout")) {
    return e;
  }
  if (config.owner_lease_ttl_us % platform::kMicrosPerMilli != 0) {
    return ConfigError{ConfigErrorKind::kNotWholeMilliseconds,
                       "owner lease TTL must be whole milliseconds (ExpiresAt is epoch ms)"};
  }
  if (config.renew_attempts_max == 0 || config.indeterminate_rereads_max == 0 ||
      config.contention_attempts_max == 0) {
    return ConfigError{ConfigErrorKind::kBoundNotPositive, "retry bounds must be at least 1"};
  }
  if (auto e = check_route_cache(config)) {
    return e;
  }
  // All four values are positive, so neither side overflows for realistic inputs; compare in
  // 128 bits anyway so no configuration can wrap around.
  const __int128 left = static_cast<__int128>(config.renew_interval_us) + config.renew_timeout_us;
  const __int128 right =
      static_cast<__int128>(config.owner_lease_ttl_us) - config.fencing_margin_us;
  if (!(left < right)) {
    return ConfigError{ConfigErrorKind::kTimingRelationViolated,
                       "renew interval + renew timeout (" + std::to_string(static_cast<long long>(left)) +
                           " us) must be < owner lease TTL - fencing margin (" +
                           std::to_string(static_cast<long long>(right)) + " us)"};
  }
  return std::nullopt;
}

}  // namespace spotcheck::location
