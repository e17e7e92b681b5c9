// Entries ordered by time: a radix heap. The event queue keeps the entries beyond its timing
// wheel's window here. Every pushed time is at least the last popped one, which is exactly what a
// radix heap needs: an entry lives in bucket (index of the highest bit where its time differs from
// the last popped time), push is O(1), and each entry moves down at most 63 buckets over its life.
//
// Entries due at one instant come out in the order they were pushed: an entry's bucket depends
// only on its time and the last popped time, so entries of equal time always share a bucket, and
// both appending and redistributing a bucket keep their order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/ids.h"
#include "sim/scheduler/ready_entry.h"

namespace spotcheck::sim {

class RadixHeap {
 public:
  // at_us must be later than the last time passed to pop_due.
  void push(TimeUs at_us, const ReadyEntry& entry);
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  TimeUs next_time_us();
  // Moves every entry due at `now_us` (== next_time_us()) to `ready`.
  void pop_due(TimeUs now_us, std::vector<ReadyEntry>& ready);

 private:
  struct Timed {
    std::uint64_t at_us;
    ReadyEntry entry;
  };
  static constexpr int kBuckets = 64;
  static int bucket_of(std::uint64_t at_us, std::uint64_t last_us) {
    return at_us == last_us ? 0 : 64 - __builtin_clzll(at_us ^ last_us);
  }
  void put(const Timed& timed);

  std::array<std::vector<Timed>, kBuckets> buckets_;
  std::vector<Timed> scratch_;
  std::uint64_t non_empty_ = 0;  // bit b set when buckets_[b] has entries
  std::uint64_t last_us_ = 0;    // the last popped time
  std::size_t size_ = 0;
  bool min_known_ = false;
  std::uint64_t min_us_ = 0;
};

}  // namespace spotcheck::sim
