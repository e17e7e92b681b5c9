// A PropertySuite over hand-built events, with helpers to assert who flagged what.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "properties/property_suite.h"
#include "tests/properties/event_script.h"

namespace spotcheck::properties::testing {

// The node indexes of the source (the client asking) and of a target (the node it asks).
inline constexpr std::int32_t kSource = 0;
inline constexpr std::int32_t kTarget = 1;

inline PropertyOptions test_options() {
  PropertyOptions options;
  options.store_epoch_ms = kEpochMs;
  options.liveness.clock_drift_ppm_max = 0;
  // Hand-built histories have no store.applied account (store_truth_test.cpp turns it on).
  options.store_ground_truth = false;
  return options;
}

class History {
 public:
  // Every registered property, or only `names`.
  explicit History(std::initializer_list<std::string_view> names = {}) : History(test_options(), names) {}
  History(const PropertyOptions& options, std::initializer_list<std::string_view> names)
      : suite(options), script(suite) {
    if (names.size() == 0) {
      suite.add_all();
    }
    for (const std::string_view name : names) {
      EXPECT_TRUE(suite.add(name));
    }
  }

  PropertySuite suite;
  Script script;
};

// The verdict of one event must be a violation of `property` whose message holds every `part`.
inline void expect_violation(const History& history, const std::optional<std::string>& verdict,
                             std::string_view property, std::initializer_list<std::string_view> parts) {
  ASSERT_TRUE(verdict.has_value()) << "expected a " << property << " violation";
  ASSERT_TRUE(history.suite.violation().has_value());
  EXPECT_EQ(history.suite.violation()->property, property) << history.suite.violation()->message;
  EXPECT_EQ(*verdict, history.suite.violation()->property + ": " + history.suite.violation()->message);
  for (const std::string_view part : parts) {
    EXPECT_NE(verdict->find(part), std::string::npos) << "missing '" << part << "' in: " << *verdict;
  }
}

#define EXPECT_LEGAL(expr)                                      \
  do {                                                          \
    const std::optional<std::string> verdict_ = (expr);         \
    EXPECT_FALSE(verdict_.has_value()) << verdict_.value_or(""); \
  } while (false)

}  // namespace spotcheck::properties::testing
