#include "sim/trace/text_arena.h"

#include <cstring>

namespace spotcheck::sim {

std::string_view TextArena::store(std::string_view text) {
  if (text.empty()) {
    return {};
  }
  stored_bytes_ += text.size();
  if (text.size() > kChunkBytes / 4) {
    // Large text gets its own chunk; the current chunk stays current.
    auto own = std::make_unique<char[]>(text.size());
    std::memcpy(own.get(), text.data(), text.size());
    const char* data = own.get();
    chunks_.insert(chunks_.begin(), std::move(own));  // the current chunk stays last
    return {data, text.size()};
  }
  if (chunks_.empty() || chunk_used_ + text.size() > kChunkBytes) {
    chunks_.push_back(std::make_unique<char[]>(kChunkBytes));
    chunk_used_ = 0;
  }
  char* target = chunks_.back().get() + chunk_used_;
  std::memcpy(target, text.data(), text.size());
  chunk_used_ += text.size();
  return {target, text.size()};
}

}  // namespace spotcheck::sim
