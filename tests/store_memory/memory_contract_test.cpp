// The provider contract suite (tests/store_contract/) instantiated for the in-memory provider.
#include <gtest/gtest.h>

#include "impl/store/memory/memory_location_store.h"
#include "impl/store/memory/memory_relocation_store.h"
#include "tests/store_contract/contract_fixture.h"
#include "tests/store_memory/fake_store_clock.h"

namespace spotcheck::store::contract {
namespace {

ProviderFactory memory_factory() {
  return ProviderFactory{"Memory", [] {
                           memory::testing::FakeStoreClock clock;
                           memory::MemoryStoreOptions options;
                           options.scan_continuation_ttl_ms = 1'000;
                           ProviderUnderTest provider;
                           provider.location = std::make_unique<memory::MemoryLocationStore>(clock.clock(), options);
                           provider.relocation = std::make_unique<memory::MemoryRelocationStore>(clock.clock());
                           provider.let_store_time_pass = [clock](std::int64_t ms) mutable { clock.advance(ms); };
                           provider.scan_continuation_ttl_ms = options.scan_continuation_ttl_ms;
                           return provider;
                         }};
}

std::string factory_name(const ::testing::TestParamInfo<ProviderFactory>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Memory, LocationStoreContract, ::testing::Values(memory_factory()), factory_name);
INSTANTIATE_TEST_SUITE_P(Memory, RelocationStoreContract, ::testing::Values(memory_factory()), factory_name);

}  // namespace
}  // namespace spotcheck::store::contract
