// The provider contract suite (tests/store_contract/) against a three-node Redis Cluster: every
// test gets a fresh hash-tagged namespace, opened through the nodes in turn (the session routes
// itself to the node owning the namespace's slot), and cleared when the test ends.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "tests/store_contract/contract_fixture.h"
#include "tests/store_contract/provider_under_test.h"
#include "tests/store_redis/redis_test_env.h"

namespace spotcheck::store::contract {
namespace {

using redis::testing::cluster_node_urls;
using redis::testing::missing_redis_allowed;
using redis::testing::test_clock;
using redis::testing::test_options;
using redis::testing::unique_tagged_namespace;

constexpr std::int64_t kScanTtlMs = 1'000;
constexpr platform::TimeUs kRequestBudgetUs = 10 * platform::kMicrosPerSecond;

// With SPOTCHECK_ALLOW_NO_REDIS=1 and no cluster, every test is skipped; without that variable
// the factory fails each test.
class SkipWithoutClusterIfAllowed : public ::testing::Environment {
 public:
  void SetUp() override {
    const redis::testing::ClusterNodes nodes = cluster_node_urls();
    if (!nodes.urls.empty() || !missing_redis_allowed()) {
      return;
    }
    std::printf("[  SKIPPED ] no redis cluster (SPOTCHECK_ALLOW_NO_REDIS=1): %s\n", nodes.why.c_str());
    GTEST_SKIP() << "no redis cluster (SPOTCHECK_ALLOW_NO_REDIS=1): " << nodes.why;
  }
};
[[maybe_unused]] ::testing::Environment* const kSkipWithoutCluster =
    ::testing::AddGlobalTestEnvironment(new SkipWithoutClusterIfAllowed);

struct NamespaceCleanup {
  std::shared_ptr<redis::RedisSession> session;
  ~NamespaceCleanup() {
    if (session) {
      const std::string error = session->clear_namespace();
      EXPECT_TRUE(error.empty()) << error;
    }
  }
};

ProviderUnderTest make_cluster_provider() {
  static std::atomic<std::size_t> opened{0};
  ProviderUnderTest provider;
  const redis::testing::ClusterNodes nodes = cluster_node_urls();
  const std::vector<std::string>& urls = nodes.urls;
  if (urls.size() != 3) {
    ADD_FAILURE() << "no three-node redis cluster: " << nodes.why << " (set SPOTCHECK_ALLOW_NO_REDIS=1 to skip)";
    return provider;
  }
  // ctest runs each test in a process of its own: the pid spreads the tests over the nodes.
  const std::size_t node = (static_cast<std::size_t>(::getpid()) + opened.fetch_add(1)) % urls.size();
  redis::RedisStoreOptions options = test_options(urls[node], kScanTtlMs);
  options.key_namespace = unique_tagged_namespace();
  redis::RedisStores stores = redis::open_redis_stores(options, test_clock());
  if (!stores.error.empty()) {
    ADD_FAILURE() << stores.error;
    return provider;
  }
  EXPECT_TRUE(stores.session->cluster()) << urls[node] << " is no cluster node";
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

ProviderFactory cluster_factory() { return ProviderFactory{"RedisCluster", make_cluster_provider}; }

INSTANTIATE_TEST_SUITE_P(RedisCluster, LocationStoreContract, ::testing::Values(cluster_factory()),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(RedisCluster, RelocationStoreContract, ::testing::Values(cluster_factory()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace spotcheck::store::contract
