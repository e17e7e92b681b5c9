#include "sim/fiber/stack_pool.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>
#include <vector>

#include "impl/check/check.h"

namespace spotcheck::sim {
namespace {

constexpr std::size_t kHugePageBytes = 2 * 1024 * 1024;
constexpr std::size_t kPageBytes = 4096;
constexpr std::size_t kStacksPerBlockMin = 16;
constexpr std::size_t kBlocksMax = 1 << 20;
// Stacks are laid out kColourStepBytes more than their size apart (an odd number of cache lines),
// so the hot top frames of neighbouring stacks fall into different cache sets. With a power-of-two
// stride inside a huge page every stack top maps to the same few L1/L2 sets and 1,000 fibers evict
// each other's frames on every switch.
constexpr std::size_t kColourStepBytes = 9 * 64;

std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

// Blocks of the pools that died on this thread, kept mapped for the thread's next pool: a campaign
// thread runs one world after another, and faulting in freshly zeroed huge pages for every world
// cost about 5% of a default-campaign seed (the kernel zeroes 2 MiB at each first touch). A fiber
// stack needs no zeroing. Bounded: at most kCachedBlocksMax blocks per thread.
constexpr std::size_t kCachedBlocksMax = 8;

struct BlockCache {
  std::vector<std::pair<void*, std::size_t>> blocks;
  ~BlockCache() {
    for (const auto& [address, bytes] : blocks) {
      ::munmap(address, bytes);
    }
  }
  // A cached block of exactly `bytes`, or nullptr.
  void* take(std::size_t bytes) {
    for (std::size_t i = blocks.size(); i > 0; --i) {  // bounded by kCachedBlocksMax
      if (blocks[i - 1].second == bytes) {
        void* block = blocks[i - 1].first;
        blocks.erase(blocks.begin() + static_cast<std::ptrdiff_t>(i - 1));
        return block;
      }
    }
    return nullptr;
  }
  // Keeps the block, or unmaps it when the cache is full.
  void give(void* block, std::size_t bytes) {
    if (blocks.size() < kCachedBlocksMax) {
      blocks.emplace_back(block, bytes);
    } else {
      ::munmap(block, bytes);
    }
  }
};

thread_local BlockCache t_block_cache;

// A fresh 2 MiB-aligned mapping of `bytes` marked MADV_HUGEPAGE.
char* map_block(std::size_t bytes) {
  // Map one huge page more than needed, then trim to a 2 MiB-aligned block.
  const std::size_t mapped_bytes = bytes + kHugePageBytes;
  void* mapped = ::mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) {
    throw std::bad_alloc();
  }
  const auto raw = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = (raw + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const std::size_t head = aligned - raw;
  const std::size_t tail = mapped_bytes - head - bytes;
  if (head > 0) {
    ::munmap(mapped, head);
  }
  if (tail > 0) {
    ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  }
  auto* block = reinterpret_cast<char*>(aligned);
  ::madvise(block, bytes, MADV_HUGEPAGE);  // advisory: fine if THP is off
  return block;
}

}  // namespace

StackPool::StackPool(std::size_t stack_size_bytes)
    : stack_size_bytes_(round_up(stack_size_bytes, kPageBytes)),
      slot_bytes_(stack_size_bytes_ + kColourStepBytes),
      block_bytes_(round_up(slot_bytes_ * kStacksPerBlockMin, kHugePageBytes)) {
  SPOTCHECK_ASSERT_ABORT(stack_size_bytes_ >= kPageBytes);
  SPOTCHECK_ASSERT_ABORT(block_bytes_ / slot_bytes_ >= kStacksPerBlockMin);
}

StackPool::~StackPool() {
  SPOTCHECK_ASSERT_ABORT(in_use_ == 0);
  for (const auto& [address, bytes] : blocks_) {
    t_block_cache.give(address, bytes);
  }
}

void StackPool::grow() {
  SPOTCHECK_ASSERT_ABORT(blocks_.size() < kBlocksMax);
  void* cached = t_block_cache.take(block_bytes_);
  char* block = cached != nullptr ? static_cast<char*>(cached) : map_block(block_bytes_);
  blocks_.emplace_back(block, block_bytes_);
  const std::size_t stacks = block_bytes_ / slot_bytes_;
  SPOTCHECK_ASSERT_ABORT(stacks >= 1);
  // Push in reverse so the lowest stack is handed out first.
  for (std::size_t index = stacks; index > 0; --index) {
    free_.push_back(block + (index - 1) * slot_bytes_);
  }
}

boost::context::stack_context StackPool::allocate() {
  if (free_.empty()) {
    grow();
  }
  char* bottom = free_.back();
  free_.pop_back();
  ++in_use_;
  boost::context::stack_context stack;
  stack.size = stack_size_bytes_;
  stack.sp = bottom + stack_size_bytes_;
  return stack;
}

void StackPool::deallocate(boost::context::stack_context& stack) noexcept {
  SPOTCHECK_ASSERT_ABORT(in_use_ > 0);
  SPOTCHECK_ASSERT_ABORT(stack.size == stack_size_bytes_);
  --in_use_;
  free_.push_back(static_cast<char*>(stack.sp) - stack.size);
}

}  // namespace spotcheck::sim
