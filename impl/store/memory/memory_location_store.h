// The in-memory Location Store provider (spec §2.1, §6.1, §6.2, §10). Synchronous and
// deterministic: std::map storage, a store-wide version counter, snapshots by commit sequence.
// The deadline argument is ignored (the simulator's store-server wrapper models time and loss).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "impl/store/memory/live_scans.h"
#include "impl/store/memory/memory_options.h"
#include "impl/store/memory/scan_token.h"
#include "impl/store/memory/versioned_map.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::store::memory {

class MemoryLocationStore final : public LocationStore {
 public:
  explicit MemoryLocationStore(StoreClock clock, MemoryStoreOptions options = {});

  ReadResult read(const Key& key, DeadlineUs deadline_us) override;
  WriteResult write(const WriteRequest& request, DeadlineUs deadline_us) override;
  ScanResult scan(const ScanRequest& request, DeadlineUs deadline_us) override;

  struct Stats {
    std::size_t key_count = 0;       // keys holding a current record or an old revision
    std::size_t revision_count = 0;  // current records plus old revisions kept for snapshots
    std::size_t live_scans = 0;
    CommitSeq last_commit = 0;
  };
  Stats stats() const;
  const MemoryStoreOptions& options() const { return _options; }
  // The StoreVersion `key` holds now (nullopt: absent), without a read's copy of the value.
  std::optional<StoreVersion> current_version(const Key& key) const;

  // The current record of `key` (value and StoreVersion), or nullopt when absent.
  std::optional<Record> current_record(const Key& key) const { return _records.current(key); }
  // The last StoreVersion the store issued.
  StoreVersion last_version() const { return StoreVersion{_last_version}; }

  // A failover to a replica that lagged behind (memory_failover.cpp): the simulator's
  // out-of-contract fault store-lost-writes, never a provider's own doing. Each call sets one key
  // back to `record` (nullopt: absent) as a new commit; rewind_versions then sets the store-wide
  // version counter back to `last`, so versions the lost writes had issued are issued again.
  void restore_for_failover(const Key& key, std::optional<Record> record);
  void rewind_versions_for_failover(StoreVersion last);

  // Deliberate bugs for tests that must see the model-based test fail. Off by default.
  TestOnlyFaults& test_only_faults() { return _faults; }

 private:
  StoreNowMs now();
  // Applies (or, when the scan set changed, catches up on) pruning of old revisions.
  void release_unneeded_revisions();
  CommitSeq prune_floor() const;

  // What one mutation will do once the write commits.
  struct PlannedMutation {
    std::optional<Bytes> new_value;  // nullopt: delete
    std::int64_t counter = 0;
  };
  // The mutations a write will apply, or the result that refuses it before anything changes.
  struct WritePlan {
    std::vector<PlannedMutation> mutations;
    std::optional<WriteResult> refusal;
  };
  std::optional<std::size_t> first_failing_condition(const WriteRequest& request) const;
  WritePlan plan_mutations(const WriteRequest& request, StoreNowMs now_ms) const;
  std::variant<std::int64_t, WriteResult> plan_increment(const Increment& increment,
                                                         std::size_t index,
                                                         StoreNowMs now_ms) const;
  Applied commit(const WriteRequest& request, std::vector<PlannedMutation> plan,
                 StoreNowMs now_ms);

  StoreClock _clock;
  MemoryStoreOptions _options;
  TestOnlyFaults _faults;
  VersionedMap _records;
  LiveScans _scans;
  ScanTokenCodec _tokens;
  StoreNowMs _last_now_ms = 0;
  CommitSeq _last_commit = 0;
  CommitSeq _pruned_floor = 0;
  std::uint64_t _last_version = 0;  // store-wide: a version is never issued twice
};

}  // namespace spotcheck::store::memory
