// A literal event kind whose bytes are packed at compile time into the words the trace hash
// consumes, so the simulator's hottest events (one task wake per scheduler step) hash a few words
// instead of scanning bytes. Hasher::add_kind(kind) folds exactly what add_bytes(kind.text()) does,
// so the trace hash is the same whichever way an event is recorded.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace spotcheck::sim {

class TraceKind {
 public:
  static constexpr std::size_t kMaxBytes = 31;

  consteval explicit TraceKind(std::string_view text) : text_(text) {
    if (text.empty() || text.size() > kMaxBytes) {
      throw "a packed trace kind has 1..31 bytes";  // a compile error in a consteval context
    }
    std::size_t word = 0;
    std::size_t offset = 0;
    // Full words, little-endian as memcpy reads them on the platforms this project targets.
    for (; offset + 8 <= text.size(); offset += 8) {
      words_[word++] = pack(text, offset, 8);
    }
    // The tail word carries the length in its top byte (as Hasher::add_bytes does).
    words_[word++] = pack(text, offset, text.size() - offset) ^ (static_cast<std::uint64_t>(text.size()) << 56);
    word_count_ = word;
  }

  constexpr std::string_view text() const { return text_; }
  constexpr std::size_t word_count() const { return word_count_; }
  constexpr std::uint64_t word(std::size_t index) const { return words_[index]; }

 private:
  static constexpr std::uint64_t pack(std::string_view text, std::size_t offset, std::size_t count) {
    std::uint64_t value = 0;
    for (std::size_t byte = 0; byte < count; ++byte) {
      value |= static_cast<std::uint64_t>(static_cast<unsigned char>(text[offset + byte])) << (8 * byte);
    }
    return value;
  }

  std::string_view text_;
  std::array<std::uint64_t, kMaxBytes / 8 + 1> words_{};
  std::size_t word_count_ = 0;
};

}  // namespace spotcheck::sim
