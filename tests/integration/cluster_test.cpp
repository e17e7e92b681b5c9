// The integration harness on a three-node Redis Cluster (the redis_cluster fixture): a scenario
// started through a node that need not own the namespace's slot runs, converges and cleans up
// (its fresh namespace is hash-tagged, every node session routes itself to the slot's owner) and
// leaves no key on any node; `spotcheck redis` with an untagged --namespace is a one-line usage
// error.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "cli/redis/redis_cli_run.h"
#include "reports/redis_summary.h"
#include "tests/store_redis/cluster_node.h"
#include "tests/integration/integration_test_env.h"

namespace spotcheck::scenarios::integration {
namespace {

using platform::seconds;
using testing::make_request;

TEST(IntegrationCluster, ContentionThroughAnyNodeOfAClusterConvergesAndCleansUp) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  // The last node: with three nodes, most namespaces' slots live elsewhere.
  const IntegrationReport report = run_integration(make_request("contention", urls.back(), seconds(3), 41));
  const std::string summary = reports::format_redis_summary(report);
  std::cout << summary;  // the run's figures in the test log
  ASSERT_TRUE(report.setup_error.empty()) << report.setup_error;
  EXPECT_EQ(report.key_namespace.rfind("{spotcheck:it:", 0), 0U) << report.key_namespace;
  EXPECT_TRUE(report.passed()) << report.failure_reason() << "\n" << summary;
  EXPECT_FALSE(report.violation.has_value()) << summary;
  EXPECT_TRUE(report.capacity.ok()) << summary;
  EXPECT_TRUE(report.owners.ok()) << summary;
  EXPECT_TRUE(report.store_clock.consistent) << summary;
  const properties::ActivityCounts& a = report.activity;
  EXPECT_GT(a.leases_renewed, 0u) << summary;
  EXPECT_GT(a.commits, 0u) << summary;
  EXPECT_GT(a.object_work, 0u) << summary;
  EXPECT_GT(a.conflicts + a.request_outcomes.count("owned-elsewhere"), 0u) << summary;
  EXPECT_EQ(report.namespace_outcome.rfind("removed (", 0), 0U) << summary;
  EXPECT_EQ(report.namespace_cleanup.left_keys, 0) << summary;
  for (const std::string& url : urls) {
    EXPECT_EQ(store::redis::testing::keys_on_node(url, report.key_namespace), 0U) << "keys left on " << url;
  }
}

TEST(IntegrationCluster, AnUntaggedNamespaceIsAOneLineUsageErrorOnEveryNode) {
  SPOTCHECK_REDIS_CLUSTER_OR_RETURN(urls);
  for (const std::string& url : urls) {
    cli::RedisCommandOptions options;
    options.url = url;
    options.scenario = "contention";
    options.duration_s = 1.0;
    options.key_namespace = "zlink:v11:";
    std::ostringstream out;
    std::ostringstream err;
    EXPECT_EQ(cli::run_redis_command(options, out, err), cli::kRedisExitUsage) << url;
    EXPECT_EQ(err.str(),
              "spotcheck redis: redis cluster needs a hash-tagged namespace such as \"{zlink:v11}:\"; got \"zlink:v11:\"\n");
    EXPECT_EQ(out.str(), "");
  }
}

}  // namespace
}  // namespace spotcheck::scenarios::integration
