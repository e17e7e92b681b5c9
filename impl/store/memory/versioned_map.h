// The in-memory store's records with multi-version history for same-point-in-time scans.
//
// Every applied write gets the next commit sequence number; all its mutations carry it, so a
// snapshot (a commit sequence number) sees a write entirely or not at all. A key keeps old
// revisions only while a live snapshot may still need them: the caller passes the oldest live
// snapshot (the "prune floor"), and every revision older than the newest one at or below the
// floor is dropped, as is a tombstone at or below the floor. Memory is therefore the current
// records plus the revisions written since the oldest live snapshot was taken.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "impl/store/spi/types.h"

namespace spotcheck::store::memory {

using CommitSeq = std::uint64_t;

// One stored value. The bytes are shared and immutable: readers receive copies of them.
struct Record {
  std::shared_ptr<const Bytes> value;
  StoreVersion version;
};

class VersionedMap {
 public:
  // The current record of `key`, if present.
  std::optional<Record> current(const Key& key) const;
  // The record of `key` as of snapshot `at` (the last commit the snapshot includes).
  std::optional<Record> as_of(const Key& key, CommitSeq at) const;

  // Sets (record) or deletes (nullopt) `key` as part of commit `seq`. Commits are applied in
  // increasing order; one commit may touch many keys, each at most once.
  void apply(const Key& key, CommitSeq seq, std::optional<Record> record, CommitSeq prune_floor);

  // Visits records visible at snapshot `at` (or the current state if nullopt), in key byte
  // order, from the first key > `after` (or >= `start` when `after` is empty) up to `end`
  // exclusive (empty `end`: no bound). `visit(key, record)` returns false to stop.
  template <class Visit>
  void visit_range(const Key& start, const std::optional<Key>& after, const Key& end,
                   std::optional<CommitSeq> at, Visit&& visit) const;

  // Drops revisions no snapshot at or above `prune_floor` can see.
  void prune(CommitSeq prune_floor);

  std::size_t key_count() const { return _histories.size(); }
  std::size_t revision_count() const { return _revision_count; }

 private:
  struct Revision {
    CommitSeq seq = 0;
    std::optional<Record> record;  // nullopt: deleted at `seq` (a tombstone)
  };
  using History = std::vector<Revision>;  // increasing seq; never empty while stored

  static const Revision* visible(const History& history, CommitSeq at);
  // Prunes one key's history; returns whether the key still holds old revisions/tombstones.
  bool prune_key(std::map<Key, History>::iterator it, CommitSeq prune_floor);

  std::map<Key, History> _histories;
  std::set<Key> _keys_with_old_revisions;  // bound: at most key_count()
  std::size_t _revision_count = 0;
  CommitSeq _last_seq = 0;
};

template <class Visit>
void VersionedMap::visit_range(const Key& start, const std::optional<Key>& after, const Key& end,
                               std::optional<CommitSeq> at, Visit&& visit) const {
  auto it = after.has_value() ? _histories.upper_bound(*after) : _histories.lower_bound(start);
  for (; it != _histories.end(); ++it) {
    if (!end.empty() && !(it->first < end)) {
      return;
    }
    const Revision* revision = at.has_value() ? visible(it->second, *at) : &it->second.back();
    if (revision == nullptr || !revision->record.has_value()) {
      continue;
    }
    if (!visit(it->first, *revision->record)) {
      return;
    }
  }
}

}  // namespace spotcheck::store::memory
