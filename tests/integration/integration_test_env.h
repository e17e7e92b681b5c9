// Helpers of the integration tests: the fixture's Redis (tests/store_redis/redis_test_env.h),
// requests for the integration scenarios, and raw key counts through hiredis.
#pragma once

#include <cstdint>
#include <string>

#include "scenarios/integration/integration_run.h"
#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::scenarios::integration::testing {

// A request for the named scenario against `url` in a fresh namespace.
IntegrationRequest make_request(const std::string& scenario, const std::string& url, platform::TimeUs duration_us,
                                std::uint64_t seed);

// Keys under `key_namespace` (SCAN MATCH), or -1 when the server could not be asked.
long count_keys(const std::string& url, const std::string& key_namespace);
// SET key value on the server (a foreign key). True on success.
bool set_raw_key(const std::string& url, const std::string& key, const std::string& value);
// GET key; empty when missing or on failure.
std::string get_raw_key(const std::string& url, const std::string& key);
// UNLINK every key under `key_namespace`.
void remove_raw_namespace(const std::string& url, const std::string& key_namespace);

}  // namespace spotcheck::scenarios::integration::testing

// A private redis-server that failed to start fails the test (skips with SPOTCHECK_ALLOW_NO_REDIS=1).
#define SPOTCHECK_REQUIRE_PRIVATE_SERVER(server)                                                  \
  if (!(server).error().empty()) {                                                                \
    if (::spotcheck::store::redis::testing::missing_redis_allowed()) {                             \
      GTEST_SKIP() << "no private redis server (SPOTCHECK_ALLOW_NO_REDIS=1): " << (server).error(); \
    }                                                                                              \
    FAIL() << "no private redis server: " << (server).error();                                    \
  }
