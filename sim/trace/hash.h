// Fast 64-bit mixing used by the trace hash and by stream seeding. Stable across builds and
// platforms of the same endianness: it is part of what "same seed, same hash" means.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "sim/trace/trace_kind.h"

namespace spotcheck::sim {

// SplitMix64 finalizer: a bijective avalanche of one word.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// Streaming hasher: one multiply per word, a full avalanche at the end.
class Hasher {
 public:
  explicit constexpr Hasher(std::uint64_t seed = 0x243f6a8885a308d3ULL) : state_(seed) {}

  constexpr void add(std::uint64_t word) {
    state_ ^= word;
    state_ = (state_ << 27) | (state_ >> 37);
    state_ *= 0x9e3779b97f4a7c15ULL;
  }

  void add_bytes(std::string_view bytes) {
    const char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left >= 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, data, 8);
      add(word);
      data += 8;
      left -= 8;
    }
    std::uint64_t tail = 0;
    if (left > 0) {  // an empty view may carry a null data() (memcpy forbids null even for 0 bytes)
      std::memcpy(&tail, data, left);
    }
    add(tail ^ (static_cast<std::uint64_t>(bytes.size()) << 56));
  }

  // Same as add_bytes(kind.text()), from the words packed at compile time.
  constexpr void add_kind(const TraceKind& kind) {
    for (std::size_t index = 0; index < kind.word_count(); ++index) {
      add(kind.word(index));
    }
  }

  constexpr std::uint64_t finish() const { return mix64(state_); }

 private:
  std::uint64_t state_;
};

}  // namespace spotcheck::sim
