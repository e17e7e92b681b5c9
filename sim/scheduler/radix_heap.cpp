#include "sim/scheduler/radix_heap.h"

#include <utility>

#include "impl/check/check.h"

namespace spotcheck::sim {

void RadixHeap::put(const Timed& timed) {
  const int bucket = bucket_of(timed.at_us, last_us_);
  SPOTCHECK_ASSERT_ABORT(bucket < kBuckets);
  buckets_[bucket].push_back(timed);
  non_empty_ |= std::uint64_t{1} << bucket;
}

void RadixHeap::push(TimeUs at_us, const ReadyEntry& entry) {
  SPOTCHECK_ASSERT_ABORT(at_us >= 0);
  const auto at = static_cast<std::uint64_t>(at_us);
  SPOTCHECK_ASSERT_ABORT(at >= last_us_);
  put(Timed{at, entry});
  ++size_;
  if (min_known_ && at < min_us_) {
    min_us_ = at;
  }
}

TimeUs RadixHeap::next_time_us() {
  SPOTCHECK_ASSERT_ABORT(size_ > 0);
  if (!min_known_) {
    const int bucket = __builtin_ctzll(non_empty_);
    if (bucket == 0) {
      min_us_ = last_us_;
    } else {
      std::uint64_t best = buckets_[bucket].front().at_us;
      for (const Timed& timed : buckets_[bucket]) {
        best = timed.at_us < best ? timed.at_us : best;
      }
      min_us_ = best;
    }
    min_known_ = true;
  }
  return static_cast<TimeUs>(min_us_);
}

void RadixHeap::pop_due(TimeUs now_us, std::vector<ReadyEntry>& ready) {
  SPOTCHECK_ASSERT_ABORT(next_time_us() == now_us);
  const auto now = static_cast<std::uint64_t>(now_us);
  if ((non_empty_ & 1U) == 0) {
    // Redistribute the lowest bucket around the new last time; everything lands lower.
    const int bucket = __builtin_ctzll(non_empty_);
    scratch_.swap(buckets_[bucket]);
    non_empty_ &= ~(std::uint64_t{1} << bucket);
    last_us_ = now;
    for (const Timed& timed : scratch_) {
      SPOTCHECK_ASSERT_ABORT(bucket_of(timed.at_us, last_us_) < bucket);
      put(timed);
    }
    scratch_.clear();
  }
  SPOTCHECK_ASSERT_ABORT(last_us_ == now);
  std::vector<Timed>& due = buckets_[0];
  SPOTCHECK_ASSERT_ABORT(!due.empty());
  for (const Timed& timed : due) {
    ready.push_back(timed.entry);
  }
  size_ -= due.size();
  due.clear();
  non_empty_ &= ~std::uint64_t{1};
  min_known_ = false;
}

}  // namespace spotcheck::sim
