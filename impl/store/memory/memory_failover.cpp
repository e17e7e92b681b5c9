// A failover of the in-memory Location Store to a replica that lagged behind: the writes it had
// acknowledged since the replica's last sync are gone. Only the simulator's out-of-contract fault
// store-lost-writes calls this (sim/store_host/write_journal.h); no provider loses writes on its own.
#include "impl/check/check.h"
#include "impl/store/memory/memory_location_store.h"

namespace spotcheck::store::memory {

void MemoryLocationStore::restore_for_failover(const Key& key, std::optional<Record> record) {
  SPOTCHECK_ASSERT_ABORT(!record.has_value() || (record->value != nullptr && record->version.value != 0));
  SPOTCHECK_ASSERT_ABORT(!record.has_value() || record->version.value <= _last_version);
  release_unneeded_revisions();
  const CommitSeq seq = ++_last_commit;
  _records.apply(key, seq, std::move(record), prune_floor());
}

void MemoryLocationStore::rewind_versions_for_failover(StoreVersion last) {
  SPOTCHECK_ASSERT_ABORT(last.value <= _last_version);
  _last_version = last.value;
}

}  // namespace spotcheck::store::memory
