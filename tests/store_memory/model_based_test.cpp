// The memory provider against model::StoreModel under RapidCheck, and proof that the check can
// fail: with a deliberate provider bug switched on, the same check must find a counterexample.
#include <gtest/gtest.h>

#include "tests/store_memory/model_based_check.h"

namespace spotcheck::store::memory::testing {
namespace {

TEST(MemoryStoreModelBased, ProviderAgreesWithTheModel) {
  ModelBasedCheckParams params;
  EXPECT_TRUE(run_model_based_check(params));
}

TEST(MemoryStoreModelBased, FaultsAreFoundUnderOtherSeedsToo) {
  for (std::uint64_t seed : {1ULL, 2ULL, 3ULL, 4ULL}) {
    ModelBasedCheckParams partial;
    partial.seed = seed;
    partial.max_success = 2000;
    partial.faults.partial_write_on_bound_exceeded = true;
    EXPECT_FALSE(run_model_based_check(partial)) << "seed " << seed;
    ModelBasedCheckParams later_writes = partial;
    later_writes.faults = TestOnlyFaults{};
    later_writes.faults.scan_sees_later_writes = true;
    EXPECT_FALSE(run_model_based_check(later_writes)) << "seed " << seed;
  }
}

TEST(MemoryStoreModelBased, ProviderAgreesWithTheModelUnderOtherSeeds) {
  for (std::uint64_t seed : {1ULL, 2ULL, 3ULL}) {
    ModelBasedCheckParams params;
    params.seed = seed;
    params.max_success = 100;
    EXPECT_TRUE(run_model_based_check(params)) << "seed " << seed;
  }
}

// A check that fails stops at its first counterexample, so a generous max_success costs little
// and keeps these tests independent of how lucky one seed is.
TEST(MemoryStoreModelBased, FailsWhenAWriteAppliesPartially) {
  ModelBasedCheckParams params;
  params.max_success = 2000;
  params.faults.partial_write_on_bound_exceeded = true;
  EXPECT_FALSE(run_model_based_check(params));
}

TEST(MemoryStoreModelBased, FailsWhenAScanSeesLaterWrites) {
  ModelBasedCheckParams params;
  params.max_success = 2000;
  params.faults.scan_sees_later_writes = true;
  EXPECT_FALSE(run_model_based_check(params));
}

}  // namespace
}  // namespace spotcheck::store::memory::testing
