// Placement (§4, §7): only Serving servers with a valid lease, weight > 0, the capability and
// remaining capacity; chosen in proportion to weight from platform::Random (fixed seeds).
#include <gtest/gtest.h>

#include <array>
#include <map>

#include "impl/platform/event_kinds.h"
#include "impl/location/placement/placement.h"
#include "tests/location/fixtures.h"
#include "tests/location/store_inspect.h"

namespace spotcheck::location {
namespace {

using testing::SeededRandom;
using testing::TestNode;
using testing::World;
using platform::seconds;

TEST(WeightedChoice, NeverDrawsAZeroWeight) {
  SeededRandom random(42);
  const std::array<std::uint32_t, 5> weights{0, 7, 0, 1, 0};
  for (int i = 0; i < 10'000; ++i) {
    const std::optional<std::size_t> chosen = choose_weighted(weights, random);
    ASSERT_TRUE(chosen.has_value());
    EXPECT_TRUE(*chosen == 1 || *chosen == 3) << *chosen;
  }
}

TEST(WeightedChoice, AllZeroOrEmptyHasNoChoice) {
  SeededRandom random(42);
  const std::array<std::uint32_t, 3> zeros{0, 0, 0};
  EXPECT_FALSE(choose_weighted(zeros, random).has_value());
  EXPECT_FALSE(choose_weighted(std::span<const std::uint32_t>(), random).has_value());
}

TEST(WeightedChoice, FrequenciesFollowTheWeights) {
  // Chi-square goodness of fit, 3 categories (2 degrees of freedom): the 99.9% critical value is
  // 13.8. With a fixed seed the statistic is fixed; a biased choice would blow far past it.
  SeededRandom random(20240601);
  const std::array<std::uint32_t, 3> weights{100, 300, 600};
  constexpr int kDraws = 60'000;
  std::array<int, 3> counts{};
  for (int i = 0; i < kDraws; ++i) {
    ++counts[choose_weighted(weights, random).value()];
  }
  double chi_square = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double expected = kDraws * weights[i] / 1000.0;
    chi_square += (counts[i] - expected) * (counts[i] - expected) / expected;
  }
  EXPECT_LT(chi_square, 13.8) << counts[0] << " " << counts[1] << " " << counts[2];
}

TEST(WeightedChoice, TheSameSeedGivesTheSameChoices) {
  const std::array<std::uint32_t, 4> weights{5, 10, 20, 40};
  SeededRandom first(9);
  SeededRandom second(9);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(choose_weighted(weights, first), choose_weighted(weights, second));
  }
}

class PlacementTest : public ::testing::Test {
 protected:
  Result<DescriptorList> list() {
    return read_descriptor_list(world.store, chooser.host.platform, config, "game");
  }

  World world;
  LocationConfig config;
  TestNode chooser{world, config, 99, {.rid = "ff99", .weight = 0}};
};

TEST_F(PlacementTest, OnlyEligibleNodesAreEverChosen) {
  TestNode good(world, config, 1, {.rid = "a001"});
  TestNode zero(world, config, 2, {.rid = "a002", .weight = 0});
  TestNode draining(world, config, 3, {.rid = "a003", .state = records::DescriptorState::kDraining});
  TestNode client(world, config, 4, {.rid = "a004", .role = records::ObjectRole::kClient});
  TestNode full(world, config, 5, {.rid = "a005", .actors_limit = 1});
  TestNode expired(world, config, 6, {.rid = "a006"});
  expired.start();
  chooser.start();
  world.clock.advance(seconds(12));
  ASSERT_TRUE(chooser.lease.renew().ok());
  world.clock.advance(seconds(5));  // `expired` never renewed: its lease ended at 16 s
  for (TestNode* node : {&good, &zero, &draining, &client, &full}) {
    node->start();
  }
  ASSERT_TRUE(chooser.authority.reserve(testing::actor_request("fills-a005"), full.view()).ok());
  Result<DescriptorList> nodes = list();
  ASSERT_TRUE(nodes.ok());
  ASSERT_EQ(nodes.value().nodes.size(), 7U);
  const PlacementRequest request{records::ObjectKind::kActor, "Player", {}};
  for (int i = 0; i < 300; ++i) {
    Result<NodeView> chosen =
        choose_placement_target(world.store, chooser.host.platform, config, nodes.value().nodes, request);
    ASSERT_TRUE(chosen.ok()) << describe(chosen.error());
    EXPECT_EQ(chosen.value().descriptor.routing_id_hex, "a001");
  }
}

TEST_F(PlacementTest, AnUnregisteredStableTypeOrNoCandidateIsNoCandidate) {
  chooser.start();
  TestNode good(world, config, 1, {.rid = "a001"});
  good.start();
  Result<DescriptorList> nodes = list();
  ASSERT_TRUE(nodes.ok());
  const PlacementRequest request{records::ObjectKind::kUserSpot, "Arena", {}};
  Result<NodeView> chosen =
      choose_placement_target(world.store, chooser.host.platform, config, nodes.value().nodes, request);
  ASSERT_FALSE(chosen.ok());
  EXPECT_EQ(chosen.error().kind, ErrorKind::kNoCandidate);
  EXPECT_EQ(world.events.count(kinds::kPlacementNoCandidate), 1U);
}

TEST_F(PlacementTest, AFullSpotTypeExcludesTheNodeForThatTypeOnly) {
  chooser.start();
  TestNode rooms(world, config, 1, {.rid = "a001", .room_limit = 1});
  rooms.start();
  ASSERT_TRUE(chooser.authority.reserve(testing::room_request("room-1"), rooms.view()).ok());
  Result<DescriptorList> nodes = list();
  ASSERT_TRUE(nodes.ok());
  EXPECT_FALSE(choose_placement_target(world.store, chooser.host.platform, config, nodes.value().nodes,
                                       {records::ObjectKind::kUserSpot, "Room", {}})
                   .ok());
  EXPECT_TRUE(choose_placement_target(world.store, chooser.host.platform, config, nodes.value().nodes,
                                      {records::ObjectKind::kActor, "Player", {}})
                  .ok());
}

TEST_F(PlacementTest, AnExcludedHostRunIsNotChosenAgain) {
  chooser.start();
  TestNode one(world, config, 1, {.rid = "a001"});
  TestNode two(world, config, 2, {.rid = "a002"});
  one.start();
  two.start();
  Result<DescriptorList> nodes = list();
  ASSERT_TRUE(nodes.ok());
  const PlacementRequest request{records::ObjectKind::kActor, "Player", {one.lease.host_run()}};
  for (int i = 0; i < 100; ++i) {
    Result<NodeView> chosen =
        choose_placement_target(world.store, chooser.host.platform, config, nodes.value().nodes, request);
    ASSERT_TRUE(chosen.ok());
    EXPECT_EQ(chosen.value().descriptor.routing_id_hex, "a002");
  }
}

TEST_F(PlacementTest, ChoicesAmongNodesAreWeightProportional) {
  chooser.start();
  TestNode light(world, config, 1, {.rid = "a001", .weight = 100});
  TestNode heavy(world, config, 2, {.rid = "a002", .weight = 300});
  light.start();
  heavy.start();
  Result<DescriptorList> nodes = list();
  ASSERT_TRUE(nodes.ok());
  std::map<std::string, int> counts;
  constexpr int kDraws = 4000;
  for (int i = 0; i < kDraws; ++i) {
    Result<NodeView> chosen = choose_placement_target(world.store, chooser.host.platform, config,
                                                      nodes.value().nodes,
                                                      {records::ObjectKind::kActor, "Player", {}});
    ASSERT_TRUE(chosen.ok());
    ++counts[chosen.value().descriptor.routing_id_hex];
  }
  // Expected 1000 / 3000; chi-square with 1 degree of freedom, 99.9% critical value 10.8.
  const double e_light = kDraws * 0.25;
  const double e_heavy = kDraws * 0.75;
  const double chi_square = (counts["a001"] - e_light) * (counts["a001"] - e_light) / e_light +
                            (counts["a002"] - e_heavy) * (counts["a002"] - e_heavy) / e_heavy;
  EXPECT_LT(chi_square, 10.8) << counts["a001"] << " " << counts["a002"];
  EXPECT_EQ(counts.count("ff99"), 0U);
}

}  // namespace
}  // namespace spotcheck::location
