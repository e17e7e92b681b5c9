// LOCATION_ASSERT's installable handler (impl/location/check.h): always on; the default prints
// and aborts; a thread may install a handler (ScopedAssertionHandler) that turns a failure into an
// InvariantViolation, so a simulated run can fail without killing the campaign process.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "impl/location/check.h"
#include "impl/location/config/location_config.h"
#include "impl/location/lease/owner_lease.h"
#include "tests/location/test_platform.h"

namespace spotcheck::location {
namespace {

int checked_half(int even) {
  LOCATION_ASSERT(even % 2 == 0);
  return even / 2;
}

// A handler that breaks the contract by returning.
void returning_handler(const char*, const char*, int) {}

TEST(AssertionHandler, DefaultHandlerPrintsTheConditionAndAborts) {
  EXPECT_EQ(assertion_handler(), &abort_on_invariant_failure);
  EXPECT_DEATH(checked_half(3), "location invariant failed: even % 2 == 0 \\(.*assertion_handler_test.cpp:[0-9]+\\)");
}

TEST(AssertionHandler, ThrowingHandlerTurnsAFailureIntoAnInvariantViolation) {
  ScopedAssertionHandler throwing(&throw_invariant_violation);
  EXPECT_EQ(checked_half(4), 2);  // a holding invariant costs nothing
  try {
    checked_half(5);
    FAIL() << "the failed invariant did not throw";
  } catch (const InvariantViolation& violation) {
    EXPECT_STREQ(violation.condition(), "even % 2 == 0");
    EXPECT_NE(std::string(violation.file()).find("assertion_handler_test.cpp"), std::string::npos);
    EXPECT_GT(violation.line(), 0);
    EXPECT_NE(std::string(violation.what()).find("location invariant failed: even % 2 == 0"),
              std::string::npos);
  }
}

TEST(AssertionHandler, InvariantViolationIsALogicError) {
  ScopedAssertionHandler throwing(&throw_invariant_violation);
  EXPECT_THROW(checked_half(7), std::logic_error);
}

TEST(AssertionHandler, ScopeRestoresThePreviousHandler) {
  {
    ScopedAssertionHandler outer(&throw_invariant_violation);
    {
      ScopedAssertionHandler inner(nullptr);  // nullptr = the default
      EXPECT_EQ(assertion_handler(), &abort_on_invariant_failure);
    }
    EXPECT_EQ(assertion_handler(), &throw_invariant_violation);
  }
  EXPECT_EQ(assertion_handler(), &abort_on_invariant_failure);
}

TEST(AssertionHandler, HandlerIsPerThread) {
  ScopedAssertionHandler throwing(&throw_invariant_violation);
  AssertionHandler seen_by_other_thread = nullptr;
  std::thread other([&] { seen_by_other_thread = assertion_handler(); });
  other.join();
  EXPECT_EQ(seen_by_other_thread, &abort_on_invariant_failure);
  EXPECT_EQ(assertion_handler(), &throw_invariant_violation);
}

TEST(AssertionHandler, AHandlerThatReturnsStillAborts) {
  EXPECT_DEATH(
      {
        ScopedAssertionHandler returning(&returning_handler);
        checked_half(9);
      },
      "location invariant failed: even % 2 == 0");
}

TEST(AssertionHandler, ProtocolInvariantsReachTheHandler) {
  // A protocol precondition (host_run() before registration) fails through the same handler.
  ScopedAssertionHandler throwing(&throw_invariant_violation);
  testing::World world;
  testing::Host host(world, 7, 1);
  const LocationConfig config;
  OwnerLease lease(config, host.platform, world.store);
  EXPECT_THROW(static_cast<void>(lease.host_run()), InvariantViolation);
  EXPECT_THROW(static_cast<void>(lease.renew()), InvariantViolation);
}

}  // namespace
}  // namespace spotcheck::location
