// The Location Store writes one store server applied within the last `window`, each with what its
// keys held before it: what a failover to a replica lagging that far behind loses (the
// out-of-contract fault store-lost-writes, faults/out_of_contract.h). Kept only while that fault is
// on; bounded by the window and by kEntriesMax.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

#include "impl/store/memory/versioned_map.h"
#include "impl/store/spi/types.h"
#include "sim/ids.h"

namespace spotcheck::sim {

class WriteJournal {
 public:
  // One key as it was before a write changed it.
  struct Before {
    store::Key key;
    std::optional<store::memory::Record> record;  // nullopt: absent
  };
  // One applied write.
  struct Entry {
    TimeUs at_us = 0;
    store::StoreVersion last_version_before;  // the store's version counter before the write
    std::vector<Before> before;
  };

  // Keeps writes for `window_us` (0: keeps none, the journal is off).
  void keep_for(TimeUs window_us);
  bool on() const { return _window_us > 0; }
  TimeUs window_us() const { return _window_us; }

  // Notes a write applied at `entry.at_us` (no earlier than the last one) and forgets the writes
  // older than the window.
  void note(Entry entry);
  // The writes applied after `since_us`, newest first, taken out of the journal.
  std::vector<Entry> take_since(TimeUs since_us);

  static constexpr std::size_t kEntriesMax = 100'000;

 private:
  TimeUs _window_us = 0;
  std::deque<Entry> _entries;  // oldest first
};

}  // namespace spotcheck::sim
