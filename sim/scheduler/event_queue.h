// Future entries ordered by virtual time. Entries due at one instant come out in the order they
// were pushed (the scheduling strategy then picks among them), so the same sequence of queue
// operations always gives the same ready order.
//
// A timing wheel of kSlots one-microsecond slots holds every entry due within the window
// (last popped time, last popped time + kSlots): push appends to the slot's FIFO list and sets a
// bit, the next due time is a bit scan, and popping a time takes its slot's list whole. Entries due
// later wait in a radix heap and move into the wheel (in time order, equal times in push order)
// as the window reaches them — always before any entry of the same time can be pushed directly
// into the wheel, which is what keeps equal-time entries in push order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/ids.h"
#include "sim/scheduler/radix_heap.h"
#include "sim/scheduler/ready_entry.h"

namespace spotcheck::sim {

class EventQueue {
 public:
  EventQueue();
  // at_us must be later than the last time passed to pop_due.
  void push(TimeUs at_us, const ReadyEntry& entry);
  bool empty() const { return wheel_size_ == 0 && far_.empty(); }
  std::size_t size() const { return wheel_size_ + far_.size(); }
  TimeUs next_time_us();
  // Moves every entry due at `now_us` (== next_time_us()) to `ready`, in push order.
  void pop_due(TimeUs now_us, std::vector<ReadyEntry>& ready);

  static constexpr std::uint64_t kSlots = 4096;  // window length in microseconds (a power of two)

 private:
  static constexpr std::uint64_t kSlotMask = kSlots - 1;
  static constexpr std::uint64_t kWords = kSlots / 64;
  static_assert(kWords <= 64, "one summary word covers the slot bitmap");
  static constexpr std::uint32_t kNoNode = 0;  // node indexes start at 1
  static constexpr std::uint64_t kNoTime = ~std::uint64_t{0};

  struct Node {
    ReadyEntry entry;
    std::uint32_t next = kNoNode;
  };
  struct Slot {
    std::uint32_t first = kNoNode;
    std::uint32_t last = kNoNode;
  };

  void wheel_push(std::uint64_t at_us, const ReadyEntry& entry);
  // Moves the far entries that the window now reaches into the wheel.
  void pull_into_window();
  // The first non-empty slot at or after `start`, going round; the wheel must be non-empty.
  std::uint64_t first_slot_from(std::uint64_t start) const;

  std::vector<Slot> slots_;     // kSlots
  std::vector<Node> nodes_;     // [0] unused; free nodes are chained through `next`
  std::uint32_t free_nodes_ = kNoNode;
  std::array<std::uint64_t, kWords> bits_{};  // bit s set when slots_[s] is non-empty
  std::uint64_t summary_ = 0;                 // bit w set when bits_[w] != 0
  std::size_t wheel_size_ = 0;
  std::uint64_t last_us_ = 0;  // the last popped time
  bool min_known_ = false;
  std::uint64_t min_us_ = 0;

  RadixHeap far_;  // entries due at or after last_us_ + kSlots
  std::uint64_t far_min_us_ = kNoTime;  // far_'s earliest time (kNoTime when empty)
  std::vector<ReadyEntry> moving_;
};

}  // namespace spotcheck::sim
