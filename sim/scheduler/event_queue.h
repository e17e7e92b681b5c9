// Future entries ordered by (virtual time, insertion sequence). Entries that fall due at the same
// instant all move to the ready set together; the scheduling strategy then picks among them.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/ids.h"
#include "sim/scheduler/ready_entry.h"

namespace spotcheck::sim {

class EventQueue {
 public:
  void push(TimeUs at_us, const ReadyEntry& entry);
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  TimeUs next_time_us() const;
  // Moves every entry due at exactly `now_us` to `ready` (in insertion order); none may be earlier.
  void pop_due(TimeUs now_us, std::vector<ReadyEntry>& ready);

 private:
  struct Timed {
    TimeUs at_us;
    std::uint64_t sequence;
    ReadyEntry entry;
  };
  struct Later {
    bool operator()(const Timed& a, const Timed& b) const {
      if (a.at_us != b.at_us) {
        return a.at_us > b.at_us;
      }
      return a.sequence > b.sequence;
    }
  };
  std::vector<Timed> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace spotcheck::sim
