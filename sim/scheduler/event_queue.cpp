#include "sim/scheduler/event_queue.h"

#include <algorithm>

#include "sim/assert.h"

namespace spotcheck::sim {

void EventQueue::push(TimeUs at_us, const ReadyEntry& entry) {
  heap_.push_back(Timed{at_us, next_sequence_++, entry});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

TimeUs EventQueue::next_time_us() const {
  SIM_ASSERT(!heap_.empty());
  return heap_.front().at_us;
}

void EventQueue::pop_due(TimeUs now_us, std::vector<ReadyEntry>& ready) {
  SIM_ASSERT(!heap_.empty());
  SIM_ASSERT(heap_.front().at_us == now_us);
  while (!heap_.empty() && heap_.front().at_us == now_us) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    ready.push_back(heap_.back().entry);
    heap_.pop_back();
  }
  SIM_ASSERT(heap_.empty() || heap_.front().at_us > now_us);
}

}  // namespace spotcheck::sim
