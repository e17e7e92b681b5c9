// The target's Restore payload assemblies (spec §9.1), case by case.
#include <gtest/gtest.h>

#include <string>

#include "impl/location/relocation/crc32c.h"
#include "impl/location/relocation/restore_assembly.h"

namespace spotcheck::location::relocation {
namespace {

RestoreBinding binding(std::uint64_t attempt = 1) {
  return RestoreBinding{RelocationId{0xabc, 0xdef}, TargetAttemptGeneration::of(attempt), SourceFence{"owner-a", 3, 7}};
}

RestoreDeclaration declared(const std::string& payload, std::uint32_t chunks, const RestoreBinding& b = binding()) {
  return RestoreDeclaration{b, payload.size(), chunks, crc32c(payload)};
}

RestoreChunk chunk(std::uint32_t index, std::string bytes, const RestoreBinding& b = binding()) {
  return RestoreChunk{b, index, std::move(bytes)};
}

TEST(RestoreAssembly, ChunksInAnyOrderAssembleTheDeclaredPayload) {
  RestoreAssemblies assemblies;
  ASSERT_EQ(assemblies.declare(declared("hello world", 3)), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(2, "rld")), ChunkOutcome::kJoined);
  EXPECT_FALSE(assemblies.verified(binding()).has_value()) << "nothing is official before every chunk is in";
  EXPECT_EQ(assemblies.add(chunk(0, "hello")), ChunkOutcome::kJoined);
  EXPECT_EQ(assemblies.add(chunk(0, "hello")), ChunkOutcome::kRepeated);
  EXPECT_EQ(assemblies.add(chunk(1, " wo")), ChunkOutcome::kJoined);
  ASSERT_TRUE(assemblies.verified(binding()).has_value());
  EXPECT_EQ(*assemblies.verified(binding()), "hello world");
  EXPECT_FALSE(assemblies.failure(binding()).has_value());
}

TEST(RestoreAssembly, AChecksumMismatchIsAnExplicitFailureAndNothingIsRestored) {
  RestoreAssemblies assemblies;
  RestoreDeclaration d = declared("payload", 2);
  d.crc32c ^= 1;
  ASSERT_EQ(assemblies.declare(d), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(0, "pay")), ChunkOutcome::kJoined);
  EXPECT_EQ(assemblies.add(chunk(1, "load")), ChunkOutcome::kJoined);
  EXPECT_FALSE(assemblies.verified(binding()).has_value());
  ASSERT_TRUE(assemblies.failure(binding()).has_value());
  EXPECT_NE(assemblies.failure(binding())->find("checksum mismatch"), std::string::npos);
  // No retry: the same Restore again meets the failure, and chunks join nothing.
  EXPECT_EQ(assemblies.declare(d), DeclareOutcome::kAlreadyFailed);
  EXPECT_EQ(assemblies.add(chunk(0, "pay")), ChunkOutcome::kDiscarded);
}

TEST(RestoreAssembly, ACorruptedChunkFailsTheChecksum) {
  RestoreAssemblies assemblies;
  ASSERT_EQ(assemblies.declare(declared("payload", 2)), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(0, "pay")), ChunkOutcome::kJoined);
  EXPECT_EQ(assemblies.add(chunk(1, "loaD")), ChunkOutcome::kJoined);
  EXPECT_FALSE(assemblies.verified(binding()).has_value());
  EXPECT_TRUE(assemblies.failure(binding()).has_value());
}

TEST(RestoreAssembly, AChunkOfAnotherBindingNeverJoins) {
  RestoreAssemblies assemblies;
  ASSERT_EQ(assemblies.declare(declared("abcdef", 2)), DeclareOutcome::kStarted);
  // A late chunk of an earlier attempt, and one of another source fence, with plausible bytes.
  EXPECT_EQ(assemblies.add(chunk(0, "abc", binding(2))), ChunkOutcome::kDiscarded);
  RestoreBinding other_fence = binding();
  other_fence.fence.authority_owner_generation = 6;
  EXPECT_EQ(assemblies.add(chunk(1, "xyz", other_fence)), ChunkOutcome::kDiscarded);
  EXPECT_FALSE(assemblies.verified(binding()).has_value());
  EXPECT_EQ(assemblies.add(chunk(0, "abc")), ChunkOutcome::kJoined);
  EXPECT_EQ(assemblies.add(chunk(1, "def")), ChunkOutcome::kJoined);
  EXPECT_EQ(*assemblies.verified(binding()), "abcdef");
}

TEST(RestoreAssembly, AChunkBeforeItsRestoreIsDiscarded) {
  RestoreAssemblies assemblies;
  EXPECT_EQ(assemblies.add(chunk(0, "abc")), ChunkOutcome::kDiscarded);
  EXPECT_EQ(assemblies.size(), 0u);
}

TEST(RestoreAssembly, AnotherAttemptOfTheSameMoveStartsFromNothing) {
  RestoreAssemblies assemblies;
  ASSERT_EQ(assemblies.declare(declared("first!", 2, binding(1))), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(0, "fir", binding(1))), ChunkOutcome::kJoined);
  ASSERT_EQ(assemblies.declare(declared("second", 2, binding(2))), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(1, "ond", binding(2))), ChunkOutcome::kJoined);
  EXPECT_FALSE(assemblies.verified(binding(2)).has_value()) << "attempt 1's chunk 0 must not count for attempt 2";
  EXPECT_EQ(assemblies.add(chunk(0, "sec", binding(2))), ChunkOutcome::kJoined);
  EXPECT_EQ(*assemblies.verified(binding(2)), "second");
  EXPECT_FALSE(assemblies.verified(binding(1)).has_value());
}

TEST(RestoreAssembly, ARetransmittedRestoreReusesTheAssemblyOnlyWithTheFirstValues) {
  RestoreAssemblies assemblies;
  const RestoreDeclaration first = declared("abcdef", 2);
  ASSERT_EQ(assemblies.declare(first), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(0, "abc")), ChunkOutcome::kJoined);
  EXPECT_EQ(assemblies.declare(first), DeclareOutcome::kReused);
  EXPECT_EQ(assemblies.add(chunk(1, "def")), ChunkOutcome::kJoined);
  EXPECT_EQ(*assemblies.verified(binding()), "abcdef");
}

TEST(RestoreAssembly, ARestoreWithAnotherLengthOrChecksumForTheSameBindingIsAConflict) {
  for (int what = 0; what < 3; ++what) {
    RestoreAssemblies assemblies;
    const RestoreDeclaration first = declared("abcdef", 2);
    ASSERT_EQ(assemblies.declare(first), DeclareOutcome::kStarted);
    EXPECT_EQ(assemblies.add(chunk(0, "abc")), ChunkOutcome::kJoined);
    RestoreDeclaration other = first;
    if (what == 0) {
      other.total_length += 1;
    } else if (what == 1) {
      other.crc32c += 1;
    } else {
      other.chunk_count += 1;
    }
    EXPECT_EQ(assemblies.declare(other), DeclareOutcome::kConflict) << what;
    // Neither reused nor overwritten: the assembly ended as a conflict failure.
    EXPECT_EQ(assemblies.add(chunk(1, "def")), ChunkOutcome::kDiscarded);
    EXPECT_FALSE(assemblies.verified(binding()).has_value());
    ASSERT_TRUE(assemblies.failure(binding()).has_value());
    EXPECT_NE(assemblies.failure(binding())->find("conflict"), std::string::npos);
    EXPECT_EQ(assemblies.declare(first), DeclareOutcome::kAlreadyFailed);
  }
}

TEST(RestoreAssembly, AConflictingRestoreAfterVerificationEndsItToo) {
  RestoreAssemblies assemblies;
  const RestoreDeclaration first = declared("ab", 1);
  ASSERT_EQ(assemblies.declare(first), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(0, "ab")), ChunkOutcome::kJoined);
  ASSERT_TRUE(assemblies.verified(binding()).has_value());
  RestoreDeclaration other = first;
  other.crc32c += 1;
  EXPECT_EQ(assemblies.declare(other), DeclareOutcome::kConflict);
  EXPECT_FALSE(assemblies.verified(binding()).has_value());
}

TEST(RestoreAssembly, BadChunksFailTheAssembly) {
  {
    RestoreAssemblies assemblies;
    ASSERT_EQ(assemblies.declare(declared("abcdef", 2)), DeclareOutcome::kStarted);
    EXPECT_EQ(assemblies.add(chunk(2, "x")), ChunkOutcome::kFailed);  // index out of range
  }
  {
    RestoreAssemblies assemblies;
    ASSERT_EQ(assemblies.declare(declared("abcdef", 2)), DeclareOutcome::kStarted);
    EXPECT_EQ(assemblies.add(chunk(0, "abc")), ChunkOutcome::kJoined);
    EXPECT_EQ(assemblies.add(chunk(0, "abX")), ChunkOutcome::kFailed);  // the same index, other bytes
  }
  {
    RestoreAssemblies assemblies;
    ASSERT_EQ(assemblies.declare(declared("abcdef", 2)), DeclareOutcome::kStarted);
    EXPECT_EQ(assemblies.add(chunk(0, "abcdefg")), ChunkOutcome::kFailed);  // more than declared
    EXPECT_NE(assemblies.failure(binding())->find("more than the declared 6 bytes"), std::string::npos);
  }
  {
    RestoreAssemblies assemblies;
    ASSERT_EQ(assemblies.declare(declared("abcdef", 2)), DeclareOutcome::kStarted);
    EXPECT_EQ(assemblies.add(chunk(0, "ab")), ChunkOutcome::kJoined);
    EXPECT_EQ(assemblies.add(chunk(1, "cd")), ChunkOutcome::kJoined);  // all chunks, too few bytes
    EXPECT_NE(assemblies.failure(binding())->find("has 4 bytes, the Restore declared 6"), std::string::npos);
  }
}

TEST(RestoreAssembly, DeclarationsOutOfBoundsAreRefusedAndKeepNothing) {
  RestoreAssemblies assemblies(AssemblyLimits{16, 4, 2});
  EXPECT_EQ(assemblies.declare(declared("abc", 0)), DeclareOutcome::kRefused);
  EXPECT_EQ(assemblies.declare(declared("abc", 5)), DeclareOutcome::kRefused);
  EXPECT_EQ(assemblies.declare(declared(std::string(17, 'x'), 1)), DeclareOutcome::kRefused);
  RestoreDeclaration no_id = declared("abc", 1);
  no_id.binding.relocation = RelocationId{};
  EXPECT_EQ(assemblies.declare(no_id), DeclareOutcome::kRefused);
  EXPECT_EQ(assemblies.size(), 0u);
  EXPECT_EQ(assemblies.declare(declared("abc", 1, binding(1))), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.declare(declared("abc", 1, binding(2))), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.declare(declared("abc", 1, binding(3))), DeclareOutcome::kRefused) << "no room";
  assemblies.forget(binding(1));
  EXPECT_EQ(assemblies.declare(declared("abc", 1, binding(3))), DeclareOutcome::kStarted);
}

TEST(RestoreAssembly, AnEmptyPayloadIsOneEmptyChunk) {
  RestoreAssemblies assemblies;
  ASSERT_EQ(assemblies.declare(declared("", 1)), DeclareOutcome::kStarted);
  EXPECT_EQ(assemblies.add(chunk(0, "")), ChunkOutcome::kJoined);
  ASSERT_TRUE(assemblies.verified(binding()).has_value());
  EXPECT_EQ(*assemblies.verified(binding()), "");
}

}  // namespace
}  // namespace spotcheck::location::relocation
