// model/host_row_transitions.h: the legal changes of owner lease rows, descriptor rows and
// counters (spec §3.1, §3.2, §3.3, §4), each rule once legal and once broken.
#include <gtest/gtest.h>

#include <optional>

#include "model/host_row_transitions.h"

namespace spotcheck::model {
namespace {

const LeaseRow kLease{"owner-1", 7, 10'000, 1'000};

TEST(HostRowTransitions, ALeaseIsCreatedOnceWithTheGenerationItsWriteIssued) {
  EXPECT_EQ(lease_put_problem("owner-1", std::nullopt, false, 7, kLease), std::nullopt);
  EXPECT_NE(lease_put_problem("owner-1", std::nullopt, false, 8, kLease), std::nullopt);
  EXPECT_NE(lease_put_problem("owner-1", std::nullopt, false, std::nullopt, kLease), std::nullopt);
  EXPECT_NE(lease_put_problem("owner-1", std::nullopt, true, 7, kLease), std::nullopt) << "an OwnerId is never reused";
  EXPECT_NE(lease_put_problem("owner-2", std::nullopt, false, 7, kLease), std::nullopt) << "another key's OwnerId";
}

TEST(HostRowTransitions, ARenewKeepsTheGenerationAndMovesExpiryForward) {
  LeaseRow renewed = kLease;
  renewed.expires_at_ms += 5'000;
  renewed.updated_at_ms += 5'000;
  EXPECT_EQ(lease_put_problem("owner-1", kLease, true, std::nullopt, renewed), std::nullopt);
  LeaseRow other_gen = renewed;
  other_gen.lease_gen = 8;
  EXPECT_NE(lease_put_problem("owner-1", kLease, true, std::nullopt, other_gen), std::nullopt);
  LeaseRow same_expiry = renewed;
  same_expiry.expires_at_ms = kLease.expires_at_ms;
  EXPECT_NE(lease_put_problem("owner-1", kLease, true, std::nullopt, same_expiry), std::nullopt);
  LeaseRow updated_back = renewed;
  updated_back.updated_at_ms = kLease.updated_at_ms - 1;
  EXPECT_NE(lease_put_problem("owner-1", kLease, true, std::nullopt, updated_back), std::nullopt);
}

TEST(HostRowTransitions, ADescriptorNeedsItsPublishersLeaseAndAHigherRevision) {
  const DescriptorRow row{"owner-1", 7, 3};
  EXPECT_EQ(descriptor_put_problem(row, kLease, std::nullopt, std::nullopt, 2, 5'000), std::nullopt);
  EXPECT_NE(descriptor_put_problem(row, std::nullopt, std::nullopt, std::nullopt, std::nullopt, 5'000), std::nullopt);
  LeaseRow other_run = kLease;
  other_run.lease_gen = 6;
  EXPECT_NE(descriptor_put_problem(row, other_run, std::nullopt, std::nullopt, std::nullopt, 5'000), std::nullopt);
  EXPECT_NE(descriptor_put_problem(row, kLease, std::nullopt, std::nullopt, 3, 5'000), std::nullopt)
      << "a same-Revision RENEW never re-stores";
}

TEST(HostRowTransitions, ATakeoverWaitsForThePreviousHoldersLeaseToEnd) {
  const DescriptorRow next{"owner-2", 1, 1};
  const LeaseRow publisher{"owner-2", 1, 20'000, 1'000};
  const DescriptorRow holder{"owner-1", 7, 4};
  EXPECT_NE(descriptor_put_problem(next, publisher, holder, kLease, std::nullopt, 9'999), std::nullopt);
  EXPECT_EQ(descriptor_put_problem(next, publisher, holder, kLease, std::nullopt, 10'000), std::nullopt)
      << "expired at StoreNow";
  EXPECT_EQ(descriptor_put_problem(next, publisher, holder, std::nullopt, std::nullopt, 5'000), std::nullopt)
      << "released";
  EXPECT_EQ(live_holder(holder, kLease, 10'000), std::nullopt);
  EXPECT_NE(live_holder(holder, kLease, 9'999), std::nullopt);
}

TEST(HostRowTransitions, CountersMoveByTheirDeltaWithinTheirBounds) {
  EXPECT_EQ(counter_increment_problem(CounterKind::kGeneration, 4, 1, 5), std::nullopt);
  EXPECT_NE(counter_increment_problem(CounterKind::kGeneration, 4, 1, 6), std::nullopt);
  EXPECT_NE(counter_increment_problem(CounterKind::kGeneration, 4, 2, 6), std::nullopt) << "a generation rises by one";
  EXPECT_NE(counter_increment_problem(CounterKind::kGeneration, kIssuedGenerationMax, 1, kIssuedGenerationMax + 1),
            std::nullopt);
  EXPECT_EQ(counter_increment_problem(CounterKind::kCapacity, 1, -1, 0), std::nullopt);
  EXPECT_NE(counter_increment_problem(CounterKind::kCapacity, 0, -1, -1), std::nullopt);
  EXPECT_NE(counter_increment_problem(CounterKind::kCapacity, INT64_MAX, 1, INT64_MIN), std::nullopt) << "no overflow";
}

}  // namespace
}  // namespace spotcheck::model
