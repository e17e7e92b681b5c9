// The Instance Spot tests' fixture: an InstanceCluster whose nodes are given per test; every
// registered property must hold at the end of each test.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "tests/location_instance/instance_cluster.h"

namespace spotcheck::location::instance::testing {

using platform::millis;
using platform::seconds;

inline InstanceNodeSpec client() { return InstanceNodeSpec{records::ObjectRole::kClient, {}}; }
inline InstanceNodeSpec server(std::vector<std::string> types) {
  return InstanceNodeSpec{records::ObjectRole::kServer, std::move(types)};
}

class InstanceTest : public ::testing::Test {
 protected:
  void make(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed = 1) {
    cluster = std::make_unique<InstanceCluster>(std::move(nodes), seed);
    cluster->start();
  }
  void TearDown() override {
    if (cluster) {
      if (std::getenv("INSTANCE_TRACE") != nullptr) {
        std::printf("%s\n", cluster->world().trace().render_range(0, cluster->world().trace().size()).c_str());
        std::printf("trace_hash=%016llx\n", static_cast<unsigned long long>(cluster->world().trace().hash()));
      }
      const auto& v = cluster->violation();
      EXPECT_FALSE(v.has_value()) << v->property << ": " << v->message;
    }
  }
  // Sends one request from node i and runs the world until it answered.
  InstanceOutcome send(std::size_t i, const std::string& spot_id, std::optional<std::string> type,
                       const std::string& body) {
    auto result = cluster->send_from(i, cluster->call(spot_id, std::move(type), body));
    EXPECT_TRUE(cluster->run_until([&] { return result->has_value(); }, seconds(60)));
    return result->value_or(InstanceOutcome{});
  }

  std::unique_ptr<InstanceCluster> cluster;
};

}  // namespace spotcheck::location::instance::testing
