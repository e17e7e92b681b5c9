#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "sim/random/streams.h"

namespace spotcheck::sim {
namespace {

std::vector<std::uint64_t> draw(platform::Random& random, int count) {
  std::vector<std::uint64_t> values;
  for (int i = 0; i < count; ++i) {
    values.push_back(random.next_u64());
  }
  return values;
}

TEST(Streams, SameSeedAndNameGiveTheSameSequence) {
  StreamRegistry left(7);
  StreamRegistry right(7);
  EXPECT_EQ(draw(left.get("network"), 100), draw(right.get("network"), 100));
}

TEST(Streams, AddingOrConsumingAnotherStreamDoesNotReshuffle) {
  StreamRegistry alone(7);
  const auto expected = draw(alone.get("workload"), 50);

  StreamRegistry crowded(7);
  draw(crowded.get("faults"), 1'000);
  crowded.get("a-new-stream");
  draw(crowded.get("scheduler"), 3);
  EXPECT_EQ(draw(crowded.get("workload"), 50), expected);
}

TEST(Streams, NamesAndSeedsSeparateStreams) {
  StreamRegistry registry(7);
  StreamRegistry other_seed(8);
  const auto network = draw(registry.get("network"), 20);
  EXPECT_NE(network, draw(registry.get("faults"), 20));
  EXPECT_NE(network, draw(other_seed.get("network"), 20));
  EXPECT_NE(stream_seed(7, "node/n1/run/1"), stream_seed(7, "node/n1/run/2"));
}

TEST(Streams, ReferencesStayValidAndDrawsAreCounted) {
  StreamRegistry registry(1);
  Stream& first = registry.get("x");
  for (int i = 0; i < 100; ++i) {
    registry.get("other" + std::to_string(i));
  }
  EXPECT_EQ(&first, &registry.get("x"));
  draw(first, 5);
  EXPECT_EQ(first.draws(), 5U);
}

TEST(Streams, BelowAndBetweenStayInRangeAndCoverIt) {
  StreamRegistry registry(3);
  Stream& random = registry.get("range");
  std::set<std::int64_t> seen;
  for (int i = 0; i < 2'000; ++i) {
    const std::int64_t value = random.between(-3, 3);
    ASSERT_GE(value, -3);
    ASSERT_LE(value, 3);
    seen.insert(value);
    ASSERT_LT(random.below(10), 10U);
  }
  EXPECT_EQ(seen.size(), 7U);
}

}  // namespace
}  // namespace spotcheck::sim
