#include "impl/location/relocation/restore_assembly.h"

#include <utility>

#include "impl/check/check.h"
#include "impl/location/relocation/crc32c.h"

namespace spotcheck::location::relocation {

RestoreAssemblies::RestoreAssemblies(AssemblyLimits limits) : _limits(limits) {
  SPOTCHECK_ASSERT(_limits.chunk_count_max > 0 && _limits.assemblies_max > 0);
}

bool RestoreAssemblies::within_limits(const RestoreDeclaration& declaration) const {
  return !declaration.binding.relocation.empty() && declaration.chunk_count > 0 &&
         declaration.chunk_count <= _limits.chunk_count_max && declaration.total_length <= _limits.payload_bytes_max;
}

DeclareOutcome RestoreAssemblies::declare(const RestoreDeclaration& declaration) {
  if (!within_limits(declaration)) {
    return DeclareOutcome::kRefused;
  }
  const std::string key = declaration.binding.text();
  auto found = _assemblies.find(key);
  if (found == _assemblies.end()) {
    if (_assemblies.size() >= _limits.assemblies_max) {
      return DeclareOutcome::kRefused;
    }
    _assemblies.emplace(key, Assembly(declaration));
    return DeclareOutcome::kStarted;
  }
  Assembly& assembly = found->second;
  SPOTCHECK_ASSERT(assembly.declared.binding == declaration.binding);
  if (assembly.state == State::kFailed) {
    return DeclareOutcome::kAlreadyFailed;
  }
  const RestoreDeclaration& first = assembly.declared;
  if (first.total_length == declaration.total_length && first.chunk_count == declaration.chunk_count &&
      first.crc32c == declaration.crc32c) {
    return DeclareOutcome::kReused;
  }
  fail(assembly, "conflict: a Restore of binding " + key + " declared " +
                     std::to_string(declaration.total_length) + " bytes in " +
                     std::to_string(declaration.chunk_count) + " chunks with CRC-32C " +
                     std::to_string(declaration.crc32c) + ", the first declared " +
                     std::to_string(first.total_length) + " in " + std::to_string(first.chunk_count) +
                     " with " + std::to_string(first.crc32c));
  return DeclareOutcome::kConflict;
}

ChunkOutcome RestoreAssemblies::add(const RestoreChunk& chunk) {
  auto found = _assemblies.find(chunk.binding.text());
  if (found == _assemblies.end() || found->second.state != State::kAssembling) {
    return ChunkOutcome::kDiscarded;
  }
  SPOTCHECK_ASSERT(found->second.declared.binding == chunk.binding);
  return join(found->second, chunk);
}

ChunkOutcome RestoreAssemblies::join(Assembly& assembly, const RestoreChunk& chunk) {
  const RestoreDeclaration& declared = assembly.declared;
  if (chunk.index >= declared.chunk_count) {
    fail(assembly, "chunk " + std::to_string(chunk.index) + " of a payload declared in " +
                       std::to_string(declared.chunk_count) + " chunks");
    return ChunkOutcome::kFailed;
  }
  if (auto held = assembly.chunks.find(chunk.index); held != assembly.chunks.end()) {
    if (held->second == chunk.bytes) {
      return ChunkOutcome::kRepeated;
    }
    fail(assembly, "chunk " + std::to_string(chunk.index) + " arrived again with other bytes");
    return ChunkOutcome::kFailed;
  }
  if (chunk.bytes.size() > declared.total_length - assembly.bytes) {
    fail(assembly, "the chunks carry more than the declared " + std::to_string(declared.total_length) + " bytes");
    return ChunkOutcome::kFailed;
  }
  assembly.chunks.emplace(chunk.index, chunk.bytes);
  assembly.bytes += chunk.bytes.size();
  SPOTCHECK_ASSERT(assembly.chunks.size() <= declared.chunk_count && assembly.bytes <= declared.total_length);
  if (assembly.chunks.size() == declared.chunk_count) {
    complete(assembly);
  }
  return ChunkOutcome::kJoined;
}

// Every chunk is in: the payload is the official snapshot only with the declared length and
// CRC-32C (§9.1); otherwise an explicit failure, and no partial payload is kept.
void RestoreAssemblies::complete(Assembly& assembly) {
  std::string payload;
  payload.reserve(assembly.bytes);
  std::uint32_t next = 0;
  for (const auto& [index, bytes] : assembly.chunks) {
    SPOTCHECK_ASSERT(index == next);  // every index 0..chunk_count-1, in order
    ++next;
    payload += bytes;
  }
  const RestoreDeclaration& declared = assembly.declared;
  if (payload.size() != declared.total_length) {
    fail(assembly, "the assembled payload has " + std::to_string(payload.size()) + " bytes, the Restore declared " +
                       std::to_string(declared.total_length));
    return;
  }
  const std::uint32_t checksum = crc32c(payload);
  if (checksum != declared.crc32c) {
    fail(assembly, "checksum mismatch: the assembled payload's CRC-32C is " + std::to_string(checksum) +
                       ", the Restore declared " + std::to_string(declared.crc32c));
    return;
  }
  assembly.chunks.clear();
  assembly.payload = std::move(payload);
  assembly.state = State::kVerified;
}

// Also a verified assembly, when a conflicting Restore of its binding arrives: it ends failed.
void RestoreAssemblies::fail(Assembly& assembly, std::string why) {
  SPOTCHECK_ASSERT(!why.empty());
  assembly.chunks.clear();
  assembly.payload.clear();
  assembly.failure = std::move(why);
  assembly.state = State::kFailed;
}

std::optional<std::string_view> RestoreAssemblies::verified(const RestoreBinding& binding) const {
  auto found = _assemblies.find(binding.text());
  if (found == _assemblies.end() || found->second.state != State::kVerified) {
    return std::nullopt;
  }
  return std::string_view(found->second.payload);
}

std::optional<std::string> RestoreAssemblies::failure(const RestoreBinding& binding) const {
  auto found = _assemblies.find(binding.text());
  if (found == _assemblies.end() || found->second.state != State::kFailed) {
    return std::nullopt;
  }
  return found->second.failure;
}

void RestoreAssemblies::forget(const RestoreBinding& binding) { _assemblies.erase(binding.text()); }

}  // namespace spotcheck::location::relocation
