// Record codec speed (docs/performance.md, "Record codec"). Run:
//   build/<dir>/bench/records/records_codec_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "impl/records/records.h"

namespace {

using namespace spotcheck::records;

std::string golden_bytes(std::string_view record_name) {
  std::ifstream file(SPOTCHECK_GOLDEN_FIXTURE);
  const nlohmann::json fixture = nlohmann::json::parse(file);
  for (const nlohmann::json& vector : fixture.at("vectors")) {
    if (vector.at("record") == record_name && vector.contains("valueBytesHex")) {
      const std::string hex = vector.at("valueBytesHex").get<std::string>();
      std::string bytes;
      for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
        bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
      }
      return bytes;
    }
  }
  throw std::runtime_error("no golden vector");
}

const std::string& authority_bytes() {
  static const std::string bytes = golden_bytes("authority");
  return bytes;
}

// The target figure: decode the stored bytes, encode them back (one read-modify-write's codec
// work).
void BM_AuthorityDecodeEncode(benchmark::State& state) {
  const std::string& bytes = authority_bytes();
  for (auto _ : state) {
    RecordResult<AuthorityRecord> record = decode_authority_record(bytes);
    if (!record.ok()) {
      state.SkipWithError("decode failed");
      break;
    }
    std::string out = encode(record.value());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_AuthorityDecodeEncode);

void BM_AuthorityDecode(benchmark::State& state) {
  const std::string& bytes = authority_bytes();
  for (auto _ : state) {
    RecordResult<AuthorityRecord> record = decode_authority_record(bytes);
    benchmark::DoNotOptimize(&record);
  }
}
BENCHMARK(BM_AuthorityDecode);

void BM_AuthorityEncode(benchmark::State& state) {
  const AuthorityRecord record = decode_authority_record(authority_bytes()).value();
  for (auto _ : state) {
    std::string out = encode(record);
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_AuthorityEncode);

void BM_AuthorityEncodeChecked(benchmark::State& state) {
  const AuthorityRecord record = decode_authority_record(authority_bytes()).value();
  for (auto _ : state) {
    RecordResult<std::string> out = encode_checked(record);
    benchmark::DoNotOptimize(&out);
  }
}
BENCHMARK(BM_AuthorityEncodeChecked);

// Comparison: a generic JSON library's parse + dump of the same bytes (no schema checks, no
// struct), sorted keys by std::map.
void BM_NlohmannParseDump(benchmark::State& state) {
  const std::string& bytes = authority_bytes();
  for (auto _ : state) {
    const nlohmann::json doc = nlohmann::json::parse(bytes);
    std::string out = doc.dump();
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_NlohmannParseDump);

void BM_MeshNodeDecodeEncode(benchmark::State& state) {
  const std::string bytes = golden_bytes("meshNodeDescriptor");
  for (auto _ : state) {
    RecordResult<MeshNodeDescriptorRecord> record = decode_mesh_node_descriptor_record(bytes);
    std::string out = encode(record.value());
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_MeshNodeDecodeEncode);

void BM_OwnerLeaseDecodeEncode(benchmark::State& state) {
  const std::string bytes = golden_bytes("ownerLease");
  for (auto _ : state) {
    RecordResult<OwnerLeaseRecord> record = decode_owner_lease_record(bytes);
    std::string out = encode(record.value());
    benchmark::DoNotOptimize(out.data());
  }
}
BENCHMARK(BM_OwnerLeaseDecodeEncode);

void BM_AuthorityRedisKey(benchmark::State& state) {
  for (auto _ : state) {
    std::string key = redis_key(authority_preimage(AuthorityKind::kActor, "user:42"));
    benchmark::DoNotOptimize(key.data());
  }
}
BENCHMARK(BM_AuthorityRedisKey);

}  // namespace
