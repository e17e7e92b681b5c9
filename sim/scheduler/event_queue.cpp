#include "sim/scheduler/event_queue.h"

#include "impl/check/check.h"

namespace spotcheck::sim {

EventQueue::EventQueue() : slots_(kSlots), nodes_(1) {}

void EventQueue::push(TimeUs at_us, const ReadyEntry& entry) {
  SPOTCHECK_ASSERT_ABORT(at_us >= 0);
  const auto at = static_cast<std::uint64_t>(at_us);
  SPOTCHECK_ASSERT_ABORT(at > last_us_);
  if (at - last_us_ < kSlots) {
    wheel_push(at, entry);
  } else {
    far_.push(at_us, entry);
    far_min_us_ = at < far_min_us_ ? at : far_min_us_;
  }
  if (min_known_ && at < min_us_) {
    min_us_ = at;
  }
}

void EventQueue::wheel_push(std::uint64_t at_us, const ReadyEntry& entry) {
  std::uint32_t node = free_nodes_;
  if (node != kNoNode) {
    free_nodes_ = nodes_[node].next;
    nodes_[node] = Node{entry, kNoNode};
  } else {
    node = static_cast<std::uint32_t>(nodes_.size());
    SPOTCHECK_ASSERT_ABORT(node != kNoNode);  // 2^32 pending entries: far beyond max_pending_events
    nodes_.push_back(Node{entry, kNoNode});
  }
  const std::uint64_t index = at_us & kSlotMask;
  Slot& slot = slots_[index];
  if (slot.last == kNoNode) {
    slot.first = node;
    bits_[index / 64] |= std::uint64_t{1} << (index % 64);
    summary_ |= std::uint64_t{1} << (index / 64);
  } else {
    nodes_[slot.last].next = node;
  }
  slot.last = node;
  ++wheel_size_;
}

std::uint64_t EventQueue::first_slot_from(std::uint64_t start) const {
  SPOTCHECK_ASSERT_ABORT(summary_ != 0);
  const std::uint64_t word = start / 64;
  const std::uint64_t here = bits_[word] & (~std::uint64_t{0} << (start % 64));
  if (here != 0) {
    return word * 64 + static_cast<std::uint64_t>(__builtin_ctzll(here));
  }
  // Later words, then round to the words up to and including `word` (its bits below `start`).
  const std::uint64_t later = word + 1 < 64 ? summary_ & (~std::uint64_t{0} << (word + 1)) : 0;
  const std::uint64_t words = later != 0 ? later : summary_;
  const auto found = static_cast<std::uint64_t>(__builtin_ctzll(words));
  SPOTCHECK_ASSERT_ABORT(bits_[found] != 0);
  return found * 64 + static_cast<std::uint64_t>(__builtin_ctzll(bits_[found]));
}

TimeUs EventQueue::next_time_us() {
  SPOTCHECK_ASSERT_ABORT(!empty());
  if (!min_known_) {
    if (wheel_size_ > 0) {
      // Every wheel entry is due before every far entry.
      const std::uint64_t slot = first_slot_from((last_us_ + 1) & kSlotMask);
      const std::uint64_t distance = (slot - last_us_) & kSlotMask;
      SPOTCHECK_ASSERT_ABORT(distance > 0);
      min_us_ = last_us_ + distance;
    } else {
      SPOTCHECK_ASSERT_ABORT(far_min_us_ == static_cast<std::uint64_t>(far_.next_time_us()));
      min_us_ = far_min_us_;
    }
    min_known_ = true;
  }
  return static_cast<TimeUs>(min_us_);
}

void EventQueue::pull_into_window() {
  // Bounded by the far heap's size: every round moves at least one entry.
  while (far_min_us_ != kNoTime && far_min_us_ - last_us_ < kSlots) {
    const std::uint64_t at = far_min_us_;
    SPOTCHECK_ASSERT_ABORT(at >= last_us_);
    far_.pop_due(static_cast<TimeUs>(at), moving_);
    for (const ReadyEntry& entry : moving_) {
      wheel_push(at, entry);
    }
    moving_.clear();
    far_min_us_ = far_.empty() ? kNoTime : static_cast<std::uint64_t>(far_.next_time_us());
  }
}

void EventQueue::pop_due(TimeUs now_us, std::vector<ReadyEntry>& ready) {
  SPOTCHECK_ASSERT_ABORT(next_time_us() == now_us);
  const auto now = static_cast<std::uint64_t>(now_us);
  last_us_ = now;
  min_known_ = false;
  pull_into_window();
  const std::uint64_t index = now & kSlotMask;
  Slot& slot = slots_[index];
  SPOTCHECK_ASSERT_ABORT(slot.first != kNoNode);
  std::uint32_t node = slot.first;
  std::size_t moved = 0;
  // Bounded by the wheel's size.
  while (node != kNoNode) {
    SPOTCHECK_ASSERT_ABORT(moved < wheel_size_);
    Node& current = nodes_[node];
    ready.push_back(current.entry);
    const std::uint32_t next = current.next;
    current.next = free_nodes_;
    free_nodes_ = node;
    node = next;
    ++moved;
  }
  slot = Slot{};
  bits_[index / 64] &= ~(std::uint64_t{1} << (index % 64));
  if (bits_[index / 64] == 0) {
    summary_ &= ~(std::uint64_t{1} << (index / 64));
  }
  wheel_size_ -= moved;
}

}  // namespace spotcheck::sim
