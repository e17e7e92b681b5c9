// The provider contract suite (tests/store_contract/) run against the Redis provider: every test
// gets a fresh namespace on the fixture's server, which is cleared when the test ends.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "tests/store_contract/contract_fixture.h"
#include "tests/store_contract/provider_under_test.h"
#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::contract {
namespace {

using redis::testing::missing_redis_allowed;
using redis::testing::shared_server_url;
using redis::testing::test_clock;
using redis::testing::test_options;

constexpr std::int64_t kScanTtlMs = 1'000;
constexpr platform::TimeUs kRequestBudgetUs = 10 * platform::kMicrosPerSecond;

// With SPOTCHECK_ALLOW_NO_REDIS=1 and no server, every test is skipped (and says so in the form
// ctest's SKIP_REGULAR_EXPRESSION recognises). Without that variable the factory fails each test.
class SkipWithoutRedisIfAllowed : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string why;
    if (shared_server_url(why) || !missing_redis_allowed()) {
      return;
    }
    std::printf("[  SKIPPED ] no redis server (SPOTCHECK_ALLOW_NO_REDIS=1): %s\n", why.c_str());
    GTEST_SKIP() << "no redis server (SPOTCHECK_ALLOW_NO_REDIS=1): " << why;
  }
};
[[maybe_unused]] ::testing::Environment* const kSkipWithoutRedis =
    ::testing::AddGlobalTestEnvironment(new SkipWithoutRedisIfAllowed);

// Clears the test's namespace when the ProviderUnderTest goes away.
struct NamespaceCleanup {
  std::shared_ptr<redis::RedisSession> session;
  ~NamespaceCleanup() {
    if (session) {
      const std::string error = session->clear_namespace();
      EXPECT_TRUE(error.empty()) << error;
    }
  }
};

ProviderUnderTest make_redis_provider() {
  ProviderUnderTest provider;
  std::string why;
  const auto url = shared_server_url(why);
  if (!url) {
    ADD_FAILURE() << "no redis server: " << why << " (set SPOTCHECK_ALLOW_NO_REDIS=1 to skip)";
    return provider;
  }
  redis::RedisStores stores = redis::open_redis_stores(test_options(*url, kScanTtlMs), test_clock());
  if (!stores.error.empty()) {
    ADD_FAILURE() << stores.error;
    return provider;
  }
  auto cleanup = std::make_shared<NamespaceCleanup>(NamespaceCleanup{stores.session});
  provider.location = std::move(stores.location);
  provider.relocation = std::move(stores.relocation);
  provider.let_store_time_pass = [cleanup](std::int64_t ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms + 1));
  };
  provider.scan_continuation_ttl_ms = kScanTtlMs;
  provider.deadline_us = [] { return test_clock().now_us() + kRequestBudgetUs; };
  return provider;
}

ProviderFactory redis_factory() { return ProviderFactory{"Redis", make_redis_provider}; }

INSTANTIATE_TEST_SUITE_P(Redis, LocationStoreContract, ::testing::Values(redis_factory()),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Redis, RelocationStoreContract, ::testing::Values(redis_factory()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace spotcheck::store::contract
