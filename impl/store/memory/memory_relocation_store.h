// The in-memory Relocation Store provider (spec §1.2, §10): immutable put-once payloads under a
// reference the framework fixed in advance, get, remove, retention by store time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "impl/store/memory/memory_options.h"
#include "impl/store/spi/relocation_store.h"

namespace spotcheck::store::memory {

class MemoryRelocationStore final : public RelocationStore {
 public:
  explicit MemoryRelocationStore(StoreClock clock);

  // retention_ms > 0: the payload is gone once store time reaches stored-at + retention_ms.
  // retention_ms == 0: kept until removed. retention_ms < 0: StoreError{kInvalidArgument}.
  // Putting the same bytes again keeps the first retention.
  PutResult put(const PayloadPut& request, DeadlineUs deadline_us) override;
  GetResult get(const Key& reference, DeadlineUs deadline_us) override;
  DeleteResult remove(const Key& reference, DeadlineUs deadline_us) override;

  std::size_t payload_count() const { return _payloads.size(); }
  // A damaged provider, for fault injection (sim/): the bytes held under `reference` replaced,
  // their retention kept; false when nothing is held there.
  bool replace_bytes(const Key& reference, Bytes bytes);

 private:
  struct Payload {
    Bytes bytes;
    StoreNowMs expires_at_ms = 0;  // kNeverExpires when kept until removed
  };
  static constexpr StoreNowMs kNeverExpires = INT64_MAX;

  StoreNowMs now();
  // Drops every payload whose retention ended at or before `now_ms`.
  void drop_expired(StoreNowMs now_ms);
  void erase(std::map<Key, Payload>::iterator it);

  StoreClock _clock;
  StoreNowMs _last_now_ms = 0;
  std::map<Key, Payload> _payloads;
  std::set<std::pair<StoreNowMs, Key>> _expiry;  // (expires_at_ms, reference); bound: _payloads.size()
};

}  // namespace spotcheck::store::memory
