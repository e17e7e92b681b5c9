// What the provider contract suite needs from a Location/Relocation Store provider.
// The same TEST_P suite runs against every provider (in-memory, Redis): each provider's test
// binary instantiates it with its own factory, e.g.
//   INSTANTIATE_TEST_SUITE_P(Memory, LocationStoreContract, ::testing::Values(memory_factory()));
// See docs/stores.md ("Running the contract suite against a new provider").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "impl/store/spi/location_store.h"
#include "impl/store/spi/relocation_store.h"

namespace spotcheck::store::contract {

struct ProviderUnderTest {
  std::unique_ptr<LocationStore> location;
  std::unique_ptr<RelocationStore> relocation;
  // Lets at least `ms` milliseconds of store time pass (the memory provider moves its clock;
  // the Redis provider sleeps).
  std::function<void(std::int64_t ms)> let_store_time_pass;
  // How long an unused scan continuation stays valid, in store milliseconds.
  std::int64_t scan_continuation_ttl_ms = 0;
  // Optional: the deadline to pass with each request (caller's monotonic clock, microseconds).
  // Empty: the suite passes kNoDeadlineUs (providers that ignore deadlines need nothing here).
  std::function<DeadlineUs()> deadline_us;
};

struct ProviderFactory {
  std::string name;
  std::function<ProviderUnderTest()> make;
};

inline std::string PrintToString(const ProviderFactory& f) { return f.name; }

}  // namespace spotcheck::store::contract
