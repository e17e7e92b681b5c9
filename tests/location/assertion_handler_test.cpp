// SPOTCHECK_ASSERT's installable handler (impl/check/check.h): always on; the default prints
// and aborts; a thread may install a handler (ScopedAssertionHandler) that turns a failure into an
// InvariantViolation, so a simulated run can fail without killing the campaign process.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "impl/check/check.h"
#include "impl/location/config/location_config.h"
#include "impl/location/lease/owner_lease.h"
#include "tests/location/test_platform.h"

namespace spotcheck::location::testing {
int ndebug_probe(int even);  // assertion_ndebug_probe.cpp
}

namespace spotcheck::location {
namespace {

using check::abort_on_invariant_failure;
using check::assertion_handler;
using check::AssertionHandler;
using check::InvariantViolation;
using check::ScopedAssertionHandler;
using check::throw_invariant_violation;

int checked_half(int even) {
  SPOTCHECK_ASSERT(even % 2 == 0);
  return even / 2;
}

// A handler that breaks the contract by returning.
void returning_handler(const char*, const char*, int) {}

TEST(AssertionHandler, DefaultHandlerPrintsTheConditionAndAborts) {
  EXPECT_EQ(assertion_handler(), &abort_on_invariant_failure);
  EXPECT_DEATH(checked_half(3), "invariant failed: even % 2 == 0 \\(.*assertion_handler_test.cpp:[0-9]+\\)");
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
    EXPECT_NE(std::string(violation.what()).find("invariant failed: even % 2 == 0"),
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
      "invariant failed: even % 2 == 0");
}

TEST(AssertionHandler, TheAbortingFormIgnoresTheHandler) {
  // The simulator's own invariants (SPOTCHECK_ASSERT_ABORT) abort even inside a simulated run,
  // where a throwing handler is installed: unwinding the kernel would corrupt the world.
  EXPECT_DEATH(
      {
        ScopedAssertionHandler throwing(&throw_invariant_violation);
        SPOTCHECK_ASSERT_ABORT(1 + 1 == 3);
      },
      "invariant failed: 1 \\+ 1 == 3");
}

TEST(AssertionHandler, AssertionsStayOnUnderNdebug) {
  // assertion_ndebug_probe.cpp is compiled with NDEBUG defined, as a plain Release build would.
  ScopedAssertionHandler throwing(&throw_invariant_violation);
  EXPECT_THROW(testing::ndebug_probe(3), InvariantViolation);
  EXPECT_EQ(testing::ndebug_probe(4), 2);
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
