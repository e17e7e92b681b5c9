// §5 startup validation: every value positive and
// renew interval + renew timeout < owner lease TTL - fencing margin.
#include <gtest/gtest.h>

#include "impl/location/config/location_config.h"

namespace spotcheck::location {
namespace {

using platform::seconds;

TEST(LocationConfig, DefaultsAreTheSpecValuesAndValid) {
  const LocationConfig config;
  EXPECT_EQ(config.renew_interval_us, seconds(5));
  EXPECT_EQ(config.owner_lease_ttl_us, seconds(15));
  EXPECT_EQ(config.renew_timeout_us, seconds(3));
  EXPECT_EQ(config.fencing_margin_us, seconds(5));
  EXPECT_FALSE(validate(config).has_value());
}

TEST(LocationConfig, EveryTimingValueMustBePositive) {
  for (int which = 0; which < 4; ++which) {
    for (TimeUs bad : {TimeUs{0}, TimeUs{-1}}) {
      LocationConfig config;
      TimeUs* fields[] = {&config.renew_interval_us, &config.owner_lease_ttl_us,
                          &config.renew_timeout_us, &config.fencing_margin_us};
      *fields[which] = bad;
      const std::optional<ConfigError> error = validate(config);
      ASSERT_TRUE(error.has_value()) << which << " " << bad;
      EXPECT_EQ(error->kind, ConfigErrorKind::kNotPositive);
    }
  }
}

TEST(LocationConfig, EqualityEdgeIsAViolation) {
  LocationConfig config;
  // 6 + 4 == 15 - 5: not strictly less.
  config.renew_interval_us = seconds(6);
  config.renew_timeout_us = seconds(4);
  const std::optional<ConfigError> error = validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ConfigErrorKind::kTimingRelationViolated);
  // One microsecond less is valid.
  config.renew_timeout_us = seconds(4) - 1;
  EXPECT_FALSE(validate(config).has_value());
}

TEST(LocationConfig, MarginTooLargeViolatesTheRelation) {
  LocationConfig config;
  config.fencing_margin_us = seconds(8);  // 5 + 3 < 15 - 8 = 7 is false
  const std::optional<ConfigError> error = validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ConfigErrorKind::kTimingRelationViolated);
}

TEST(LocationConfig, TtlMustBeWholeMilliseconds) {
  LocationConfig config;
  config.owner_lease_ttl_us = seconds(15) + 1;
  const std::optional<ConfigError> error = validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ConfigErrorKind::kNotWholeMilliseconds);
}

TEST(LocationConfig, RetryBoundsMustBePositive) {
  LocationConfig config;
  config.renew_attempts_max = 0;
  const std::optional<ConfigError> error = validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ConfigErrorKind::kBoundNotPositive);
}

// §7.3: RouteCacheMaxAge 15 s and MessageFollowDuration 30 s by default; 0 disables either; with
// both on, the cache is at least 5 s shorter than the follow period; negative is an error.
TEST(LocationConfig, RouteCacheRulesOfSection7_3) {
  LocationConfig config;
  EXPECT_EQ(config.route_cache_max_age_us, seconds(15));
  EXPECT_EQ(config.message_follow_duration_us, seconds(30));
  config.route_cache_max_age_us = seconds(25);  // == 30 - 5: allowed
  EXPECT_FALSE(validate(config).has_value());
  config.route_cache_max_age_us = seconds(25) + 1;  // 1 us too long
  std::optional<ConfigError> error = validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ConfigErrorKind::kRouteCacheRule);
  EXPECT_NE(error->message.find("at least 5 s shorter"), std::string::npos) << error->message;
  config.message_follow_duration_us = 0;  // Message Follow off: the cache alone has no gap rule
  EXPECT_FALSE(validate(config).has_value());
  config.message_follow_duration_us = seconds(30);
  config.route_cache_max_age_us = 0;  // the cache off
  EXPECT_FALSE(validate(config).has_value());
  config.route_cache_max_age_us = -1;
  error = validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ConfigErrorKind::kRouteCacheRule);
  config.route_cache_max_age_us = seconds(1);
  config.message_follow_duration_us = seconds(5);  // 1 > 5 - 5
  error = validate(config);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind, ConfigErrorKind::kRouteCacheRule);
  EXPECT_EQ(to_string(ConfigErrorKind::kRouteCacheRule), "route_cache_rule");
}

}  // namespace
}  // namespace spotcheck::location
