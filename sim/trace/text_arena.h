// Append-only storage for trace text. Returned views stay valid for the arena's lifetime, also
// after the arena is moved (chunks never move).
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace spotcheck::sim {

class TextArena {
 public:
  std::string_view store(std::string_view text);
  std::size_t size_bytes() const { return stored_bytes_; }

 private:
  static constexpr std::size_t kChunkBytes = 64 * 1024;
  std::vector<std::unique_ptr<char[]>> chunks_;
  std::size_t chunk_used_ = kChunkBytes;
  std::size_t stored_bytes_ = 0;
};

}  // namespace spotcheck::sim
