// In-memory Location Store: read, CAS write, and a 1,000-entry scan page (docs/performance.md).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "impl/store/memory/memory_location_store.h"

namespace spotcheck::store::memory {
namespace {

constexpr std::size_t kKeyCount = 10'000;
constexpr std::size_t kValueBytes = 200;  // about an authority record

Key key_at(std::size_t i) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "rec:%08zu", i);
  return buffer;
}

struct Fixture {
  Fixture() : store([this] { return now_ms; }) {
    versions.reserve(kKeyCount);
    for (std::size_t i = 0; i < kKeyCount; ++i) {
      const WriteResult result = store.write(WriteRequest{{}, {Put{key_at(i), Bytes(kValueBytes, 'v')}}}, 0);
      versions.push_back(std::get<Applied>(result).outcomes[0].version);
    }
  }
  StoreNowMs now_ms = 1'700'000'000'000;
  MemoryLocationStore store;
  std::vector<StoreVersion> versions;
};

// A fixed stride walks every key in a cache-unfriendly but deterministic order.
std::size_t next_index(std::size_t i) { return (i + 7'919) % kKeyCount; }

void BM_MemoryRead(benchmark::State& state) {
  Fixture fixture;
  std::size_t i = 0;
  for (auto _ : state) {
    ReadResult result = fixture.store.read(key_at(i), 0);
    benchmark::DoNotOptimize(result);
    i = next_index(i);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MemoryRead);

void BM_MemoryCasWrite(benchmark::State& state) {
  Fixture fixture;
  std::size_t i = 0;
  const Bytes value(kValueBytes, 'w');
  for (auto _ : state) {
    const Key key = key_at(i);
    WriteResult result =
        fixture.store.write(WriteRequest{{ExpectVersion{key, fixture.versions[i]}}, {Put{key, value}}}, 0);
    fixture.versions[i] = std::get<Applied>(result).outcomes[0].version;
    benchmark::DoNotOptimize(result);
    i = next_index(i);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MemoryCasWrite);

void BM_MemoryScanPage1000(benchmark::State& state) {
  Fixture fixture;
  ScanRequest request{"rec:", "rec;", std::nullopt, 1000};
  for (auto _ : state) {
    ScanResult result = fixture.store.scan(request, 0);
    const ScanPage& page = std::get<ScanPage>(result);
    request.continuation = page.continuation;  // absent after the last page: start again
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_MemoryScanPage1000);

// The same page while a concurrent writer keeps changing keys ahead of the scan, so the page is
// read from the snapshot's older revisions.
void BM_MemoryScanPage1000WithWritesBetweenPages(benchmark::State& state) {
  Fixture fixture;
  ScanRequest request{"rec:", "rec;", std::nullopt, 1000};
  std::size_t i = 0;
  const Bytes value(kValueBytes, 'w');
  for (auto _ : state) {
    state.PauseTiming();
    for (int w = 0; w < 500; ++w) {
      const Key key = key_at(i);
      const WriteResult written = fixture.store.write(WriteRequest{{}, {Put{key, value}}}, 0);
      benchmark::DoNotOptimize(written);
      i = next_index(i);
    }
    state.ResumeTiming();
    ScanResult result = fixture.store.scan(request, 0);
    request.continuation = std::get<ScanPage>(result).continuation;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_MemoryScanPage1000WithWritesBetweenPages);

}  // namespace
}  // namespace spotcheck::store::memory

BENCHMARK_MAIN();
