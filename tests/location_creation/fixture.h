// The creation tests' fixture: a Cluster (client-role source node 0, object servers after it)
// with a CountingFactory on every node; every registered property must hold at the end.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <map>
#include <memory>

#include "impl/location/lease/owner_id.h"
#include "tests/location_creation/test_factories.h"
#include "tests/location_support/cluster.h"

namespace spotcheck::location::creation::testing {

using platform::millis;
using platform::seconds;

inline ClusterOptions source_and_servers(std::size_t servers) {
  ClusterOptions options;
  options.nodes.clear();
  options.nodes.push_back(NodeSpec{records::ObjectRole::kClient, 0});
  for (std::size_t i = 0; i < servers; ++i) {
    options.nodes.push_back(NodeSpec{});
  }
  return options;
}

class CreationTest : public ::testing::Test {
 protected:
  void make(ClusterOptions options = source_and_servers(1)) {
    cluster = std::make_unique<Cluster>(std::move(options));
    cluster->install_factories = [this](std::size_t, platform::Platform& p, FactoryRegistry& r) {
      factory.install(p, r);
    };
    cluster->start();
  }
  void TearDown() override {
    if (cluster) {
      if (std::getenv("CREATION_TRACE") != nullptr) {  // dump the whole trace of each test
        std::printf("%s\n", cluster->world().trace().render_range(0, cluster->world().trace().size()).c_str());
        std::printf("trace_hash=%016llx\n", static_cast<unsigned long long>(cluster->world().trace().hash()));
      }
      const auto& v = cluster->violation();
      EXPECT_FALSE(v.has_value()) << v->property << ": " << v->message;
    }
  }
  // Runs one Manager call on node i and returns its result.
  template <class Call>
  auto call_on(std::size_t i, Call&& call, platform::TimeUs limit = seconds(120)) {
    std::optional<decltype(call(std::declval<CreationNode&>()))> out;
    cluster->run_on(i, [&](CreationNode& node) { out.emplace(call(node)); }, limit);
    EXPECT_TRUE(out.has_value());
    return std::move(*out);
  }

  CountingFactory factory;
  std::unique_ptr<Cluster> cluster;
};

#define ASSERT_MANAGER_OK(result) ASSERT_TRUE((result).ok()) << describe((result).error())

}  // namespace spotcheck::location::creation::testing
