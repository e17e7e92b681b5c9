// An append-only sequence stored in fixed-size chunks: appending never moves or copies what is
// already stored (a std::vector doubling its buffer copies the whole trace log, which for a
// multi-million-event run means tens of megabytes copied and fresh pages touched again).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "impl/check/check.h"

namespace spotcheck::sim {

template <typename T>
class SegmentedLog {
 public:
  static constexpr std::size_t kChunkShift = 14;  // 16,384 elements per chunk
  static constexpr std::size_t kChunkSize = std::size_t{1} << kChunkShift;

  void push_back(const T& value) {
    const std::size_t offset = size_ & (kChunkSize - 1);
    if (offset == 0) [[unlikely]] {
      chunks_.push_back(std::make_unique_for_overwrite<T[]>(kChunkSize));
      current_ = chunks_.back().get();
    }
    current_[offset] = value;
    ++size_;
  }
  const T& operator[](std::uint64_t index) const {
    SPOTCHECK_ASSERT_ABORT(index < size_);
    return chunks_[index >> kChunkShift][index & (kChunkSize - 1)];
  }
  std::uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  T* current_ = nullptr;  // the last chunk (chunks never move, also when the log is moved)
  std::uint64_t size_ = 0;
};

}  // namespace spotcheck::sim
