// Eight-bytes-at-a-time scans for the codec's hot loops (internal to impl/records).
// Each predicate reports exactly whether ANY byte of the word matches.
#pragma once

#include <cstdint>
#include <cstring>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "attention_mask needs little-endian loads");

namespace spotcheck::records::swar {

inline constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
inline constexpr std::uint64_t kHighs = 0x8080808080808080ULL;

inline std::uint64_t load(const char* bytes) {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes, sizeof(word));
  return word;
}

inline std::uint64_t has_zero_byte(std::uint64_t word) { return (word - kOnes) & ~word & kHighs; }

inline std::uint64_t has_byte(std::uint64_t word, unsigned char value) {
  return has_zero_byte(word ^ (kOnes * value));
}

// Any byte < limit (limit <= 128).
inline std::uint64_t has_less_than(std::uint64_t word, unsigned char limit) {
  return (word - kOnes * limit) & ~word & kHighs;
}

// Any byte that a canonical JSON string must escape: control characters, '"', '\\'.
inline bool needs_escape(std::uint64_t word) {
  return (has_less_than(word, 0x20) | has_byte(word, '"') | has_byte(word, '\\')) != 0;
}

// Any byte a reader must look at: needs_escape() or non-ASCII.
inline bool needs_attention(std::uint64_t word) {
  return needs_escape(word) || (word & kHighs) != 0;
}

// High bit set in the byte lanes a reader must look at. The LOWEST set bit is exact (borrows
// only propagate upward), so on a little-endian load countr_zero(mask) / 8 is the index of the
// first such byte; higher lanes may be false positives.
inline std::uint64_t attention_mask(std::uint64_t word) {
  return has_less_than(word, 0x20) | has_byte(word, '"') | has_byte(word, '\\') |
         (word & kHighs);
}

}  // namespace spotcheck::records::swar
