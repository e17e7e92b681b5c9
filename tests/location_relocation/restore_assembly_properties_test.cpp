// Properties of the Restore assemblies (spec §9.1) over random payloads, chunkings and delivery
// orders: two attempts of one move interleave, chunks repeat, and one may be corrupted.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "impl/location/relocation/crc32c.h"
#include "impl/location/relocation/restore_assembly.h"

namespace spotcheck::location::relocation {
namespace {

RestoreBinding attempt(std::uint64_t generation) {
  return RestoreBinding{RelocationId{0x5eed, 0x1}, TargetAttemptGeneration::of(generation), SourceFence{"owner-s", 2, 9}};
}

// `payload` cut at `cuts` (positions, any order, repeats allowed) into chunks of `binding`.
std::vector<RestoreChunk> chunked(const std::string& payload, std::vector<std::size_t> cuts, const RestoreBinding& binding) {
  for (std::size_t& cut : cuts) {
    cut = payload.empty() ? 0 : cut % (payload.size() + 1);
  }
  cuts.push_back(0);
  cuts.push_back(payload.size());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<RestoreChunk> chunks;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    chunks.push_back(RestoreChunk{binding, static_cast<std::uint32_t>(i), payload.substr(cuts[i], cuts[i + 1] - cuts[i])});
  }
  if (chunks.empty()) {
    chunks.push_back(RestoreChunk{binding, 0, ""});
  }
  return chunks;
}

RestoreDeclaration declaration(const std::string& payload, std::size_t chunks, const RestoreBinding& binding) {
  return RestoreDeclaration{binding, payload.size(), static_cast<std::uint32_t>(chunks), crc32c(payload)};
}

// Every chunk of both attempts (some twice), in the order `order` picks.
std::vector<RestoreChunk> interleaved(const std::vector<RestoreChunk>& a, const std::vector<RestoreChunk>& b,
                                      const std::vector<std::size_t>& order) {
  std::vector<RestoreChunk> all = a;
  all.insert(all.end(), b.begin(), b.end());
  for (std::size_t i = 0; i < a.size() && i < order.size(); i += 2) {
    all.push_back(a[order[i] % a.size()]);  // retransmissions of the current attempt
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::swap(all[i % all.size()], all[order[i] % all.size()]);
  }
  return all;
}

RC_GTEST_PROP(RestoreAssemblyProperties, TwoAttemptsOfOneMoveNeverMix,
              (const std::string& current, const std::string& earlier, const std::vector<std::size_t>& cuts_current,
               const std::vector<std::size_t>& cuts_earlier, const std::vector<std::size_t>& order)) {
  const std::vector<RestoreChunk> a = chunked(current, cuts_current, attempt(2));
  const std::vector<RestoreChunk> b = chunked(earlier, cuts_earlier, attempt(1));
  RestoreAssemblies assemblies;
  RC_ASSERT(assemblies.declare(declaration(current, a.size(), attempt(2))) == DeclareOutcome::kStarted);
  RC_ASSERT(assemblies.declare(declaration(earlier, b.size(), attempt(1))) == DeclareOutcome::kStarted);
  for (const RestoreChunk& chunk : interleaved(a, b, order)) {
    const ChunkOutcome outcome = assemblies.add(chunk);
    RC_ASSERT(outcome == ChunkOutcome::kJoined || outcome == ChunkOutcome::kRepeated ||
              outcome == ChunkOutcome::kDiscarded);  // discarded: a repeat after its assembly verified
  }
  RC_ASSERT(assemblies.verified(attempt(2)).has_value());
  RC_ASSERT(std::string(*assemblies.verified(attempt(2))) == current);
  RC_ASSERT(assemblies.verified(attempt(1)).has_value());
  RC_ASSERT(std::string(*assemblies.verified(attempt(1))) == earlier);
}

RC_GTEST_PROP(RestoreAssemblyProperties, AnUndeclaredAttemptsChunksChangeNothing,
              (const std::string& current, const std::string& stray, const std::vector<std::size_t>& cuts,
               const std::vector<std::size_t>& order)) {
  const std::vector<RestoreChunk> a = chunked(current, cuts, attempt(2));
  const std::vector<RestoreChunk> b = chunked(stray, cuts, attempt(1));  // its Restore never came
  RestoreAssemblies assemblies;
  RC_ASSERT(assemblies.declare(declaration(current, a.size(), attempt(2))) == DeclareOutcome::kStarted);
  std::size_t joined = 0;
  for (const RestoreChunk& chunk : interleaved(a, b, order)) {
    const ChunkOutcome outcome = assemblies.add(chunk);
    if (chunk.binding == attempt(1)) {
      RC_ASSERT(outcome == ChunkOutcome::kDiscarded);
    }
    joined += outcome == ChunkOutcome::kJoined ? 1 : 0;
  }
  RC_ASSERT(joined == a.size());
  RC_ASSERT(std::string(*assemblies.verified(attempt(2))) == current);
  RC_ASSERT(assemblies.size() == 1u);
}

RC_GTEST_PROP(RestoreAssemblyProperties, OneFlippedBitIsNeverRestored,
              (const std::string& current, const std::vector<std::size_t>& cuts, std::size_t where, std::uint8_t bit)) {
  RC_PRE(!current.empty());
  std::vector<RestoreChunk> a = chunked(current, cuts, attempt(2));
  std::vector<RestoreChunk*> nonempty;
  for (RestoreChunk& chunk : a) {
    if (!chunk.bytes.empty()) {
      nonempty.push_back(&chunk);
    }
  }
  RestoreChunk& damaged = *nonempty[where % nonempty.size()];
  damaged.bytes[where % damaged.bytes.size()] ^= static_cast<char>(1u << (bit % 8));
  RestoreAssemblies assemblies;
  RC_ASSERT(assemblies.declare(declaration(current, a.size(), attempt(2))) == DeclareOutcome::kStarted);
  for (const RestoreChunk& chunk : a) {
    RC_ASSERT(assemblies.add(chunk) == ChunkOutcome::kJoined);
  }
  RC_ASSERT(!assemblies.verified(attempt(2)).has_value());
  RC_ASSERT(assemblies.failure(attempt(2)).has_value());
}

}  // namespace
}  // namespace spotcheck::location::relocation
