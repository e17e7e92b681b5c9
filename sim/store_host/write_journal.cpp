#include "sim/store_host/write_journal.h"

#include "impl/check/check.h"

namespace spotcheck::sim {

void WriteJournal::keep_for(TimeUs window_us) {
  SPOTCHECK_ASSERT_ABORT(window_us >= 0);
  _window_us = window_us;
  if (window_us == 0) {
    _entries.clear();
  }
}

void WriteJournal::note(Entry entry) {
  SPOTCHECK_ASSERT_ABORT(on());
  SPOTCHECK_ASSERT_ABORT(_entries.empty() || _entries.back().at_us <= entry.at_us);
  const TimeUs oldest_kept_us = entry.at_us - _window_us;
  _entries.push_back(std::move(entry));
  while (!_entries.empty() && (_entries.front().at_us < oldest_kept_us || _entries.size() > kEntriesMax)) {
    _entries.pop_front();
  }
}

std::vector<WriteJournal::Entry> WriteJournal::take_since(TimeUs since_us) {
  std::vector<Entry> taken;
  while (!_entries.empty() && _entries.back().at_us > since_us) {
    taken.push_back(std::move(_entries.back()));
    _entries.pop_back();
  }
  return taken;
}

}  // namespace spotcheck::sim
