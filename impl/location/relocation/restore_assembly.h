// The target's Restore payload assemblies (spec §9.1: "these bytes are this move's official
// snapshot"). A Restore request declares the payload's total length, chunk count and CRC-32C;
// it and every chunk carry a RestoreBinding (RelocationId, TargetAttemptGeneration, source fence).
//   * A chunk joins only the assembly of exactly its binding; any other chunk — a late chunk of an
//     earlier attempt, of another source fence, or one before its Restore — is discarded, never
//     joined, so an earlier attempt's payload never mixes into the current move.
//   * Another attempt of the same RelocationId is another binding: it never uses an earlier
//     attempt's assembly state.
//   * A retransmitted Restore with the same binding reuses the assembly only when the declared
//     length, chunk count and checksum equal the first ones; other values end the assembly as an
//     explicit conflict (neither reused nor overwritten).
//   * Once every chunk is in, the assembled bytes must have the declared length and CRC-32C: then
//     the payload is verified; otherwise the assembly fails explicitly (no retry) and nothing is
//     ever restored from a partially assembled or mismatching payload.
// Untrusted input: declarations and chunks are bounded (AssemblyLimits) before anything is kept.
// Deterministic: assemblies are kept in an ordered map keyed by RestoreBinding::text().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "impl/location/relocation/relocation_ids.h"

namespace spotcheck::location::relocation {

struct RestoreDeclaration {
  RestoreBinding binding;
  std::uint64_t total_length = 0;
  std::uint32_t chunk_count = 0;
  std::uint32_t crc32c = 0;
};

struct RestoreChunk {
  RestoreBinding binding;
  std::uint32_t index = 0;  // 0 .. chunk_count-1
  std::string bytes;
};

struct AssemblyLimits {
  std::uint64_t payload_bytes_max = std::uint64_t{64} << 20;
  std::uint32_t chunk_count_max = 65'536;
  std::size_t assemblies_max = 256;  // assemblies kept at once (verified and failed ones count)
};

enum class DeclareOutcome {
  kStarted,        // a new assembly for this binding
  kReused,         // a retransmitted Restore with the first declared values: the assembly goes on
  kConflict,       // the same binding with other declared values: the assembly ended in failure
  kAlreadyFailed,  // the binding's assembly had already failed: still failed, nothing changes
  kRefused,        // out of bounds (no chunks, over the limits, an empty RelocationId) or no room
};

enum class ChunkOutcome {
  kJoined,     // it joined its binding's assembly (the last one also verified or failed it)
  kRepeated,   // the same index with the same bytes again: nothing changes
  kDiscarded,  // no assembling assembly has exactly its binding: never joined
  kFailed,     // it ended its assembly in failure: index out of range, the same index with other
               // bytes, or more bytes than declared
};

class RestoreAssemblies {
 public:
  explicit RestoreAssemblies(AssemblyLimits limits = {});

  DeclareOutcome declare(const RestoreDeclaration& declaration);
  ChunkOutcome add(const RestoreChunk& chunk);

  // The verified payload of `binding`, or nullopt while it is assembling, after it failed, or when
  // no assembly has that binding. Valid until the next call that changes this object.
  std::optional<std::string_view> verified(const RestoreBinding& binding) const;
  // Why the assembly of `binding` failed (one line), or nullopt.
  std::optional<std::string> failure(const RestoreBinding& binding) const;
  // Drops the assembly of `binding` (restored, cancelled, or the move ended); later chunks and
  // Restores of that binding start from nothing.
  void forget(const RestoreBinding& binding);
  std::size_t size() const { return _assemblies.size(); }

 private:
  enum class State { kAssembling, kVerified, kFailed };
  struct Assembly {
    explicit Assembly(const RestoreDeclaration& declaration) : declared(declaration) {}

    RestoreDeclaration declared;
    // The chunks received, by index, while assembling: kept only as they arrive, so a declared
    // chunk count costs nothing until chunks come.
    std::map<std::uint32_t, std::string> chunks;
    std::uint64_t bytes = 0;
    State state = State::kAssembling;
    std::string payload;  // once verified
    std::string failure;  // once failed
  };

  bool within_limits(const RestoreDeclaration& declaration) const;
  ChunkOutcome join(Assembly& assembly, const RestoreChunk& chunk);
  static void complete(Assembly& assembly);
  static void fail(Assembly& assembly, std::string why);

  AssemblyLimits _limits;
  std::map<std::string, Assembly> _assemblies;
};

}  // namespace spotcheck::location::relocation
