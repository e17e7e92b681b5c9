// §8.1 values and the CRC-32C a Restore declares.
#include <gtest/gtest.h>

#include <concepts>
#include <set>
#include <string>

#include "impl/location/relocation/crc32c.h"
#include "impl/location/relocation/relocation_ids.h"
#include "impl/platform/random.h"
#include "tests/location/test_platform.h"

namespace spotcheck::location::relocation {
namespace {

// A source of zeros first, then counting: the ids must skip a zero draw.
class ZerosThenCounting final : public platform::Random {
 public:
  explicit ZerosThenCounting(int zeros) : _zeros(zeros) {}
  std::uint64_t next_u64() override { return _zeros-- > 0 ? 0 : ++_next; }

 private:
  int _zeros;
  std::uint64_t _next = 0;
};

TEST(RelocationIds, ARelocationIdIsNeverZeroAndPrintsAs32HexDigits) {
  ZerosThenCounting random(2);  // the first draw is all zero: drawn again
  const RelocationId id = RelocationId::random(random);
  EXPECT_FALSE(id.empty());
  EXPECT_EQ(id.hex(), "00000000000000010000000000000002");
}

TEST(RelocationIds, ATargetAttemptGenerationIsNeverZeroAndOnlyComparedForEquality) {
  ZerosThenCounting random(1);
  const TargetAttemptGeneration first = TargetAttemptGeneration::random(random);
  const TargetAttemptGeneration second = TargetAttemptGeneration::random(random);
  EXPECT_EQ(first.value(), 1u);
  EXPECT_NE(first, second);
  EXPECT_EQ(first, TargetAttemptGeneration::of(1));
  // No ordering, no arithmetic: `first < second` does not compile (§8.1: equality only).
  static_assert(!std::totally_ordered<TargetAttemptGeneration>);
}

TEST(RelocationIds, DrawnIdsDiffer) {
  location::testing::SeededRandom random(7);
  std::set<std::string> seen;
  for (int i = 0; i < 1'000; ++i) {
    seen.insert(RelocationId::random(random).hex());
  }
  EXPECT_EQ(seen.size(), 1'000u);
}

TEST(RelocationIds, ABindingDiffersInAnyOfItsValues) {
  const RestoreBinding binding{RelocationId{1, 2}, TargetAttemptGeneration::of(3), SourceFence{"owner-a", 4, 5}};
  RestoreBinding other = binding;
  EXPECT_EQ(other, binding);
  other.attempt = TargetAttemptGeneration::of(9);
  EXPECT_NE(other, binding);
  other = binding;
  other.fence.authority_owner_generation = 6;
  EXPECT_NE(other, binding);
  EXPECT_EQ(binding.text(), "00000000000000010000000000000002/3/4/5/owner-a");
}

TEST(Crc32c, MatchesTheCastagnoliCheckValues) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);  // the catalogued check value of CRC-32/ISCSI
  EXPECT_EQ(crc32c(""), 0u);
  EXPECT_EQ(crc32c(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720 B.4: 32 bytes of zeros
  EXPECT_EQ(crc32c(std::string(32, '\xff')), 0x62A8AB43u);  // RFC 3720 B.4: 32 bytes of ones
}

}  // namespace
}  // namespace spotcheck::location::relocation
