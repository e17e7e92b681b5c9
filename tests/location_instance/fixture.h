// The Instance Spot tests' fixture: an InstanceCluster whose nodes are given per test; every
// registered property must hold at the end of each test.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <memory>

#include "tests/location_instance/instance_cluster.h"

namespace spotcheck::location::instance::testing {

// The Instance Spot most tests use, and their two nodes' indexes: a client and the server.
inline constexpr std::string_view kSpot = "chat-1";
inline constexpr std::size_t kClient = 0;
inline constexpr std::size_t kServer = 1;

using platform::millis;
using platform::seconds;

inline InstanceNodeSpec client() { return InstanceNodeSpec{records::ObjectRole::kClient, {}}; }
inline InstanceNodeSpec server(std::vector<std::string> types) {
  return InstanceNodeSpec{records::ObjectRole::kServer, std::move(types)};
}

class InstanceTest : public ::testing::Test {
 protected:
  void make(std::vector<InstanceNodeSpec> nodes, std::uint64_t seed = 1, LocationConfig location = {},
            InstanceSourceConfig source = {seconds(30)}) {
    cluster = std::make_unique<InstanceCluster>(std::move(nodes), seed, location, source);
    cluster->start();
  }
  void TearDown() override {
    if (cluster) {
      if (std::getenv("INSTANCE_TRACE") != nullptr) {
        std::printf("%s\n", cluster->world().trace().render_range(0, cluster->world().trace().size()).c_str());
        std::printf("trace_hash=%016llx\n", static_cast<unsigned long long>(cluster->world().trace().hash()));
      }
      const auto& v = cluster->violation();
      if (expected_violation.empty()) {
        EXPECT_FALSE(v.has_value()) << v->property << ": " << v->message;
      } else {
        EXPECT_TRUE(v.has_value()) << "expected a " << expected_violation << " violation";
        EXPECT_EQ(v.has_value() ? v->property : std::string(), expected_violation);
      }
    }
  }
  // Sends one request from node i and runs the world until it answered.
  InstanceOutcome send(std::size_t i, const std::string& spot_id, std::optional<std::string> type,
                       const std::string& body) {
    auto result = cluster->send_from(i, cluster->call(spot_id, std::move(type), body));
    EXPECT_TRUE(cluster->run_until([&] { return result->has_value(); }, seconds(60)));
    return result->value_or(InstanceOutcome{});
  }

  // Runs the world until done() or a property violation stopped it, at most `limit` (virtual).
  // Unlike Cluster::run_until a violation is not a test failure here: the caller judges it.
  // Returns done().
  bool run_until_done_or_violation(const std::function<bool()>& done, TimeUs limit) {
    sim::World& world = cluster->world();
    const TimeUs end_us = world.now_us() + limit;
    while (!done() && !cluster->violation().has_value() && world.now_us() < end_us) {
      const sim::RunOutcome outcome = world.run_until(std::min(end_us, world.now_us() + millis(10)), kStepsMax);
      EXPECT_NE(outcome.status, sim::RunStatus::failure) << outcome.problem;
      if (outcome.status == sim::RunStatus::failure || outcome.status == sim::RunStatus::violation) {
        break;
      }
    }
    return done();
  }

  static constexpr std::uint64_t kStepsMax = 50'000'000;
  std::unique_ptr<InstanceCluster> cluster;
  std::string expected_violation;  // TearDown then requires this property's violation instead of none
};

}  // namespace spotcheck::location::instance::testing
