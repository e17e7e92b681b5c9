// Value limits of the public records (spec §3.1–§3.4, §4). One place for every bound the
// codec checks; protocol code uses the generation helpers when issuing counters.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spotcheck::records {

// The JSON structure version this codec reads and writes (spec §3.4).
inline constexpr std::uint64_t kRecordVersion = 1;

// Generations (ObjectGeneration, AuthorityOwnerGeneration, LeaseGeneration, lifecycle
// generations): stored range 1..2^63-1, where 2^63-1 is the exhausted sentinel that is never
// issued. The issued range is 1..2^63-2 (spec §3.1, §3.2). Records carry issued values only:
// a record holding the sentinel (or 0) is rejected with kOutOfRange.
inline constexpr std::uint64_t kGenerationMin = 1;
inline constexpr std::uint64_t kGenerationMax = (std::uint64_t{1} << 63) - 2;
inline constexpr std::uint64_t kGenerationExhausted = (std::uint64_t{1} << 63) - 1;

// A descriptor Revision is non-zero and never exceeds 2^63-1 (spec §4).
inline constexpr std::uint64_t kRevisionMin = 1;
inline constexpr std::uint64_t kRevisionMax = (std::uint64_t{1} << 63) - 1;

// applicationVersion (a deployment sequence number) and epoch-millisecond timestamps:
// 0..2^63-1, written as decimal strings.
inline constexpr std::uint64_t kSequenceMax = (std::uint64_t{1} << 63) - 1;
inline constexpr std::int64_t kEpochMsMax = static_cast<std::int64_t>(kSequenceMax);

// Identity text (ActorId, SpotId, OwnerId, MeshName, ChannelName, stable type, ...):
// 1..255 UTF-8 bytes, no NUL, compared byte-exact (no normalization, no case folding; §3.3).
inline constexpr std::size_t kIdentityBytesMin = 1;
inline constexpr std::size_t kIdentityBytesMax = 255;

// RoutingId raw bytes: 1..255, written as 2..510 lowercase hex characters.
inline constexpr std::size_t kRoutingIdBytesMin = 1;
inline constexpr std::size_t kRoutingIdBytesMax = 255;

// Stored size of one record value: one descriptor (§4) and one per-object location record
// (§8) are each at most 1 MiB.
inline constexpr std::size_t kRecordBytesMax = std::size_t{1} << 20;
inline constexpr std::size_t kDescriptorBytesMax = kRecordBytesMax;

// The creation request's stored size is at most 1 MiB (§7): bound of requestEncodedSize.
inline constexpr std::uint64_t kCreationRequestBytesMax = std::uint64_t{1} << 20;

// List bounds of one MeshNode descriptor (§4).
inline constexpr std::size_t kCapabilityEntriesMax = 1024;
inline constexpr std::size_t kSpotTypeEntriesMax = 1024;
inline constexpr std::size_t kChannelWeightEntriesMax = 1024;

// Weights 0..10000 (default 100); limits and slot counts 0..2^31-1 (0 = unlimited for limits).
inline constexpr std::uint32_t kWeightMax = 10000;
inline constexpr std::uint32_t kWeightDefault = 100;
inline constexpr std::uint32_t kSlotsMax = 0x7fffffffU;
inline constexpr std::uint32_t kLimitMax = kSlotsMax;

// SHA-256 as hex: 64 lowercase characters.
inline constexpr std::size_t kSha256HexChars = 64;

// True for a value a counter may issue and a record may carry: 1..2^63-2.
constexpr bool is_issued_generation(std::uint64_t generation) {
  return generation >= kGenerationMin && generation <= kGenerationMax;
}
// True for a value a stored counter may hold: 1..2^63-1 (the sentinel included).
constexpr bool is_stored_generation(std::uint64_t generation) {
  return generation >= kGenerationMin && generation <= kGenerationExhausted;
}
// True once a counter holds the exhausted sentinel: a further issuance is GenerationExhausted
// and must change nothing (spec §3.2).
constexpr bool is_generation_exhausted(std::uint64_t generation) {
  return generation == kGenerationExhausted;
}
constexpr bool is_revision(std::uint64_t revision) {
  return revision >= kRevisionMin && revision <= kRevisionMax;
}

static_assert(kGenerationMax + 1 == kGenerationExhausted);
static_assert(!is_issued_generation(0));
static_assert(!is_issued_generation(kGenerationExhausted));
static_assert(is_stored_generation(kGenerationExhausted));

}  // namespace spotcheck::records
