// The event queue (timing wheel + radix heap for far entries) and the radix heap alone against a
// plain reference: an ordered map of FIFO lists. Equal-time entries must come out in push order,
// whichever structure holds them and whenever they move from the heap into the wheel.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "sim/scheduler/event_queue.h"
#include "sim/scheduler/radix_heap.h"

namespace spotcheck::sim {
namespace {

class ReferenceQueue {
 public:
  void push(TimeUs at_us, const ReadyEntry& entry) { due_[at_us].push_back(entry); }
  bool empty() const { return due_.empty(); }
  TimeUs next_time_us() const { return due_.begin()->first; }
  std::vector<ReadyEntry> pop_due(TimeUs now_us) {
    std::vector<ReadyEntry> popped = std::move(due_.at(now_us));
    due_.erase(now_us);
    return popped;
  }

 private:
  std::map<TimeUs, std::vector<ReadyEntry>> due_;
};

std::vector<std::uint64_t> tokens(const std::vector<ReadyEntry>& entries) {
  std::vector<std::uint64_t> out;
  for (const ReadyEntry& entry : entries) {
    out.push_back(entry.token);
  }
  return out;
}

// Pushes a random mix of near (inside the wheel's window), far (beyond it) and repeated times,
// pops everything, and checks each popped instant against the reference.
template <typename Queue>
void check_against_reference(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Queue queue;
  ReferenceQueue reference;
  TimeUs last_popped = 0;
  std::vector<TimeUs> recent;  // times pushed before, to push equal times again
  std::uint64_t next_token = 1;
  const auto pick_time = [&]() -> TimeUs {
    const std::uint64_t choice = random() % 10;
    if (choice < 3 && !recent.empty()) {
      const TimeUs again = recent[random() % recent.size()];
      if (again > last_popped) {
        return again;
      }
    }
    const auto window = static_cast<TimeUs>(EventQueue::kSlots);
    if (choice < 6) {
      return last_popped + 1 + static_cast<TimeUs>(random() % window);  // inside the window
    }
    if (choice < 8) {
      return last_popped + window - 2 + static_cast<TimeUs>(random() % 5);  // the window's edge
    }
    return last_popped + 1 + static_cast<TimeUs>(random() % (100 * window));  // far
  };
  for (int round = 0; round < 3'000; ++round) {
    const std::uint64_t pushes = random() % 6;
    for (std::uint64_t i = 0; i < pushes; ++i) {
      const TimeUs at = pick_time();
      const ReadyEntry entry{next_token++, 0, EntryKind::action, WakeReason::start};
      queue.push(at, entry);
      reference.push(at, entry);
      recent.push_back(at);
      if (recent.size() > 64) {
        recent.erase(recent.begin());
      }
    }
    ASSERT_EQ(queue.empty(), reference.empty());
    if (reference.empty()) {
      continue;
    }
    ASSERT_EQ(queue.next_time_us(), reference.next_time_us()) << "round " << round;
    last_popped = reference.next_time_us();
    std::vector<ReadyEntry> popped;
    queue.pop_due(last_popped, popped);
    ASSERT_EQ(tokens(popped), tokens(reference.pop_due(last_popped))) << "round " << round << " at " << last_popped;
  }
  while (!reference.empty()) {
    ASSERT_EQ(queue.next_time_us(), reference.next_time_us());
    last_popped = reference.next_time_us();
    std::vector<ReadyEntry> popped;
    queue.pop_due(last_popped, popped);
    ASSERT_EQ(tokens(popped), tokens(reference.pop_due(last_popped)));
  }
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.size(), 0U);
}

TEST(EventQueue, PopsInTimeOrderAndEqualTimesInPushOrderLikeTheReference) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    check_against_reference<EventQueue>(seed);
  }
}

TEST(RadixHeap, PopsInTimeOrderAndEqualTimesInPushOrderLikeTheReference) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    check_against_reference<RadixHeap>(seed);
  }
}

TEST(EventQueue, AFarEntryMovedIntoTheWheelStaysAheadOfALaterPushOfTheSameTime) {
  EventQueue queue;
  const TimeUs far = static_cast<TimeUs>(EventQueue::kSlots) * 3;
  queue.push(far, ReadyEntry{1, 0, EntryKind::action, WakeReason::start});  // held by the heap
  queue.push(far - 10, ReadyEntry{2, 0, EntryKind::action, WakeReason::start});
  std::vector<ReadyEntry> popped;
  ASSERT_EQ(queue.next_time_us(), far - 10);
  queue.pop_due(far - 10, popped);  // the window now reaches `far`: entry 1 moves into the wheel
  queue.push(far, ReadyEntry{3, 0, EntryKind::action, WakeReason::start});  // straight into the wheel
  popped.clear();
  ASSERT_EQ(queue.next_time_us(), far);
  queue.pop_due(far, popped);
  EXPECT_EQ(tokens(popped), (std::vector<std::uint64_t>{1, 3}));
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace spotcheck::sim
