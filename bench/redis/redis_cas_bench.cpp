// CAS writes per second through the Redis provider, and redis-benchmark running the provider's
// write script (EVALSHA, one condition + one Put, one connection) against the same server.
// Run with bench/redis/run-cas-bench, or set SPOTCHECK_REDIS_URL. See docs/performance.md.
#include <benchmark/benchmark.h>
#include <openssl/sha.h>

#include <array>
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
constexpr int kRawRequests = 50'000;
const Bytes kValue(64, 'v');

double g_provider_writes_per_second = 0;

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

std::string sha1_hex(const std::string& text) {
  std::array<unsigned char, SHA_DIGEST_LENGTH> digest{};
  SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest.data());
  return hex_encode(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

// Records the provider's rate so the redis-benchmark entry can report the ratio.
void BM_RedisBenchmarkEvalsha(benchmark::State& state) {
  SteadyClock clock;
  RedisStoreOptions options;
  options.url = redis_url();
  options.key_namespace = bench_namespace("raw");
  RedisStores stores = open_redis_stores(options, clock);  // loads the scripts, claims the namespace
  if (!stores.error.empty()) {
    state.SkipWithError(stores.error.c_str());
    return;
  }
  const RedisUrl& url = stores.session->url();
  const std::string key_sha = sha256_hex("bench/cas-key");
  // The index member normally holds escape(key) "\0\1" sha; argv cannot carry a zero byte, so the
  // raw run uses "bench/cas-key--" sha (same length and work; the script reads only the sha tail).
  std::string command = "redis-benchmark -h " + url.host + " -p " + std::to_string(url.port) + " -c 1 -n " +
                        std::to_string(kRawRequests) + " --csv";
  if (!url.password.empty()) {
    command += " --no-auth-warning -a '" + url.password + "'" + (url.user.empty() ? "" : " --user '" + url.user + "'");
  }
  if (url.db != 0) {
    command += " --dbnum " + std::to_string(url.db);
  }
  command += " EVALSHA " + sha1_hex(script_text(ScriptId::kWrite)) + " 0 " + options.key_namespace + " 1 a " +
             sha256_hex("bench/absent-key") + " '' 1 p " + key_sha + " bench/cas-key--" + key_sha + " " + kValue +
             " '' ''";
  double raw_per_second = 0;
  for (auto _ : state) {
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
      state.SkipWithError("cannot run redis-benchmark");
      return;
    }
    std::array<char, 4096> line{};
    // Bound: redis-benchmark --csv prints a header and one line per test.
    for (int i = 0; i < 16 && std::fgets(line.data(), line.size(), pipe) != nullptr; ++i) {
      double rps = 0;
      if (std::sscanf(line.data(), "\"%*[^\"]\",\"%lf\"", &rps) == 1) {
        raw_per_second = rps;
      }
    }
    const int status = ::pclose(pipe);
    if (status != 0 || raw_per_second <= 0) {
      state.SkipWithError("redis-benchmark failed or printed no rate");
      return;
    }
  }
  // The script really applied every request: the record's version advanced that many times.
  const ReadResult read = stores.location->read("bench/cas-key", kNoDeadline);
  const bool applied = std::holds_alternative<Found>(read) && std::get<Found>(read).value == kValue;
  (void)stores.session->clear_namespace();
  if (!applied) {
    state.SkipWithError("the raw EVALSHA run did not write the record");
    return;
  }
  state.counters["raw_evalsha_per_s"] = raw_per_second;
  state.counters["provider_cas_per_s"] = g_provider_writes_per_second;
  state.counters["provider_over_raw"] =
      raw_per_second > 0 ? g_provider_writes_per_second / raw_per_second : 0.0;
}

// Runs the provider benchmark first and keeps its rate for the comparison.
class RateReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.benchmark_name().rfind("BM_ProviderCasWrite", 0) == 0 && !run.error_occurred) {
        const auto items = run.counters.find("items_per_second");
        if (items != run.counters.end()) {
          g_provider_writes_per_second = items->second.value;
        }
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace
}  // namespace spotcheck::store::redis

BENCHMARK(spotcheck::store::redis::BM_RedisBenchmarkEvalsha)->Iterations(1)->UseRealTime();

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  spotcheck::store::redis::RateReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
