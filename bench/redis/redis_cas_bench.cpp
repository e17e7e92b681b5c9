// CAS writes per second through the Redis provider, and redis-benchmark running the provider's
// write script (EVALSHA, one condition + one Put, one connection) against the same server.
// Run with bench/redis/run-cas-bench, or set SPOTCHECK_REDIS_URL. See docs/performance.md.
#include <benchmark/benchmark.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <unistd.h>

#include "impl/store/redis/key_layout.h"
#include "impl/store/redis/lua_scripts.h"
#include "impl/store/redis/redis_stores.h"
#include "impl/store/redis/steady_clock.h"

namespace spotcheck::store::redis {
namespace {

constexpr DeadlineUs kNoDeadline = std::numeric_limits<DeadlineUs>::max();
constexpr int kRounds = 15;
constexpr int kOpsPerRound = 2'000;
const Bytes kValue(64, 'v');

std::string redis_url() {
  const char* url = std::getenv("SPOTCHECK_REDIS_URL");
  return url != nullptr ? url : "";
}

std::string bench_namespace(const char* what) {
  return "spotcheck-bench:" + std::to_string(::getpid()) + ":" + what + ":";
}

void BM_ProviderCasWrite(benchmark::State& state) {
  SteadyClock clock;
  RedisStoreOptions options;
  options.url = redis_url();
  options.key_namespace = bench_namespace("provider");
  RedisStores stores = open_redis_stores(options, clock);
  if (!stores.error.empty()) {
    state.SkipWithError(("set SPOTCHECK_REDIS_URL or use bench/redis/run-cas-bench: " + stores.error).c_str());
    return;
  }
  const Key key = "bench/cas-key";
  WriteRequest first;
  first.mutations.push_back(Put{key, kValue});
  WriteResult result = stores.location->write(first, kNoDeadline);
  StoreVersion version = std::get<Applied>(result).outcomes.at(0).version;
  std::int64_t conflicts = 0;
  for (auto _ : state) {
    WriteRequest cas;
    cas.conditions.push_back(ExpectVersion{key, version});
    cas.mutations.push_back(Put{key, kValue});
    result = stores.location->write(cas, kNoDeadline);
    if (const auto* applied = std::get_if<Applied>(&result)) {
      version = applied->outcomes[0].version;
    } else {
      ++conflicts;
    }
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["conflicts"] = static_cast<double>(conflicts);
  (void)stores.session->clear_namespace();
  if (conflicts != 0) {
    state.SkipWithError("a CAS write did not apply");
  }
}
BENCHMARK(BM_ProviderCasWrite)->UseRealTime()->MinTime(2.0);

void BM_ProviderRead(benchmark::State& state) {
  SteadyClock clock;
  RedisStoreOptions options;
  options.url = redis_url();
  options.key_namespace = bench_namespace("read");
  RedisStores stores = open_redis_stores(options, clock);
  if (!stores.error.empty()) {
    state.SkipWithError(stores.error.c_str());
    return;
  }
  WriteRequest first;
  first.mutations.push_back(Put{"bench/read-key", kValue});
  (void)stores.location->write(first, kNoDeadline);
  std::int64_t misses = 0;
  for (auto _ : state) {
    const ReadResult result = stores.location->read("bench/read-key", kNoDeadline);
    misses += std::holds_alternative<Found>(result) ? 0 : 1;
  }
  state.SetItemsProcessed(state.iterations());
  (void)stores.session->clear_namespace();
  if (misses != 0) {
    state.SkipWithError("a read did not find the record");
  }
}
BENCHMARK(BM_ProviderRead)->UseRealTime()->MinTime(1.0);

std::string sha1_hex(const std::string& text) {
  std::array<unsigned char, SHA_DIGEST_LENGTH> digest{};
  SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest.data());
  return hex_encode(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

// Provider CAS writes vs redis-benchmark running the same write script (EVALSHA), alternating in
// rounds so both see the same machine load; reports the median of the per-round rates.
void BM_ProviderVsRedisBenchmark(benchmark::State& state) {
  SteadyClock clock;
  RedisStoreOptions options;
  options.url = redis_url();
  options.key_namespace = bench_namespace("compare");
  RedisStores stores = open_redis_stores(options, clock);  // loads the scripts, claims the namespace
  if (!stores.error.empty()) {
    state.SkipWithError(stores.error.c_str());
    return;
  }
  const RedisUrl& url = stores.session->url();
  const Key key = "bench/cas-key";
  const std::string key_sha = sha256_hex(key);
  // The index member normally holds escape(key) "\0\1" sha; argv cannot carry a zero byte, so the
  // raw run uses "bench/cas-key--" sha (same length and work; the script reads only the sha tail).
  std::string command = "redis-benchmark -h " + url.host + " -p " + std::to_string(url.port) + " -c 1 -n " +
                        std::to_string(kOpsPerRound) + " --csv";
  if (!url.password.empty()) {
    command += " --no-auth-warning -a '" + url.password + "'" + (url.user.empty() ? "" : " --user '" + url.user + "'");
  }
  if (url.db != 0) {
    command += " --dbnum " + std::to_string(url.db);
  }
  command += " EVALSHA " + sha1_hex(script_text(ScriptId::kWrite)) + " 1 " + sequence_key(options.key_namespace) +
             " " + options.key_namespace + " 1 a " +
             sha256_hex("bench/absent-key") + " '' 1 p " + key_sha + " bench/cas-key--" + key_sha + " " + kValue +
             " '' ''";

  WriteRequest first;
  first.mutations.push_back(Put{key, kValue});
  StoreVersion version = std::get<Applied>(stores.location->write(first, kNoDeadline)).outcomes.at(0).version;
  std::vector<double> provider_rates;
  std::vector<double> raw_rates;
  for (auto _ : state) {
    for (int round = 0; round < kRounds; ++round) {
      const auto started = std::chrono::steady_clock::now();
      for (int i = 0; i < kOpsPerRound; ++i) {
        WriteRequest cas;
        cas.conditions.push_back(ExpectVersion{key, version});
        cas.mutations.push_back(Put{key, kValue});
        const WriteResult result = stores.location->write(cas, kNoDeadline);
        if (!std::holds_alternative<Applied>(result)) {
          state.SkipWithError("a CAS write did not apply");
          return;
        }
        version = std::get<Applied>(result).outcomes[0].version;
      }
      const std::chrono::duration<double> provider_s = std::chrono::steady_clock::now() - started;
      provider_rates.push_back(kOpsPerRound / provider_s.count());

      FILE* pipe = ::popen(command.c_str(), "r");
      if (pipe == nullptr) {
        state.SkipWithError("cannot run redis-benchmark");
        return;
      }
      double raw_per_second = 0;
      std::array<char, 4096> line{};
      // Bound: redis-benchmark --csv prints a header and one line per test.
      for (int i = 0; i < 16 && std::fgets(line.data(), line.size(), pipe) != nullptr; ++i) {
        double rps = 0;
        if (std::sscanf(line.data(), "\"%*[^\"]\",\"%lf\"", &rps) == 1) {
          raw_per_second = rps;
        }
      }
      if (::pclose(pipe) != 0 || raw_per_second <= 0) {
        state.SkipWithError("redis-benchmark failed or printed no rate");
        return;
      }
      raw_rates.push_back(raw_per_second);
      // The raw run really executed the script: its writes moved the record's version on.
      const ReadResult read = stores.location->read(key, kNoDeadline);
      if (!std::holds_alternative<Found>(read) || std::get<Found>(read).version.value < version.value + kOpsPerRound) {
        state.SkipWithError("the raw EVALSHA run did not write the record");
        return;
      }
      version = std::get<Found>(read).version;
    }
  }
  (void)stores.session->clear_namespace();
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<double> ratios;
  for (std::size_t i = 0; i < provider_rates.size(); ++i) {
    ratios.push_back(provider_rates[i] / raw_rates[i]);
  }
  state.counters["provider_cas_per_s"] = median(provider_rates);
  state.counters["raw_evalsha_per_s"] = median(raw_rates);
  state.counters["provider_over_raw"] = median(ratios);
}
BENCHMARK(BM_ProviderVsRedisBenchmark)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotcheck::store::redis
