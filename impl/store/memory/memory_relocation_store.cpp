#include "impl/store/memory/memory_relocation_store.h"

#include <algorithm>
#include <utility>

#include "impl/check/check.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::store::memory {

MemoryRelocationStore::MemoryRelocationStore(StoreClock clock) : _clock(std::move(clock)) {
  SPOTCHECK_ASSERT_ABORT(static_cast<bool>(_clock));
}

StoreNowMs MemoryRelocationStore::now() {
  _last_now_ms = std::max(_last_now_ms, _clock());
  return _last_now_ms;
}

void MemoryRelocationStore::erase(std::map<Key, Payload>::iterator it) {
  if (it->second.expires_at_ms != kNeverExpires) {
    const std::size_t erased = _expiry.erase({it->second.expires_at_ms, it->first});
    SPOTCHECK_ASSERT_ABORT(erased == 1);
  }
  _payloads.erase(it);
}

void MemoryRelocationStore::drop_expired(StoreNowMs now_ms) {
  // Bound: each iteration removes one payload.
  while (!_expiry.empty() && _expiry.begin()->first <= now_ms) {
    const auto it = _payloads.find(_expiry.begin()->second);
    SPOTCHECK_ASSERT_ABORT(it != _payloads.end());
    SPOTCHECK_ASSERT_ABORT(it->second.expires_at_ms == _expiry.begin()->first);
    erase(it);
  }
  SPOTCHECK_ASSERT_ABORT(_expiry.size() <= _payloads.size());
}

PutResult MemoryRelocationStore::put(const PayloadPut& request, DeadlineUs /*deadline_us*/) {
  if (auto error = validate_key(request.reference)) {
    return *error;
  }
  if (request.retention_ms < 0) {
    return StoreError{StoreErrorKind::kInvalidArgument, "negative retention"};
  }
  const StoreNowMs now_ms = now();
  drop_expired(now_ms);
  if (const auto it = _payloads.find(request.reference); it != _payloads.end()) {
    SPOTCHECK_ASSERT_ABORT(it->second.expires_at_ms > now_ms);
    if (it->second.bytes == request.payload) {
      return Stored{true, now_ms};
    }
    return PayloadConflict{now_ms};
  }
  StoreNowMs expires_at_ms = kNeverExpires;
  if (request.retention_ms > 0) {
    expires_at_ms = request.retention_ms >= kNeverExpires - now_ms ? kNeverExpires - 1
                                                                    : now_ms + request.retention_ms;
    _expiry.emplace(expires_at_ms, request.reference);
  }
  const auto [it, inserted] = _payloads.emplace(request.reference, Payload{request.payload, expires_at_ms});
  SPOTCHECK_ASSERT_ABORT(inserted);
  SPOTCHECK_ASSERT_ABORT(it->second.expires_at_ms > now_ms);
  return Stored{false, now_ms};
}

GetResult MemoryRelocationStore::get(const Key& reference, DeadlineUs /*deadline_us*/) {
  if (auto error = validate_key(reference)) {
    return *error;
  }
  const StoreNowMs now_ms = now();
  drop_expired(now_ms);
  const auto it = _payloads.find(reference);
  if (it == _payloads.end()) {
    return PayloadMissing{now_ms};
  }
  SPOTCHECK_ASSERT_ABORT(it->second.expires_at_ms > now_ms);
  return PayloadFound{it->second.bytes, now_ms};
}

bool MemoryRelocationStore::replace_bytes(const Key& reference, Bytes bytes) {
  drop_expired(now());
  const auto it = _payloads.find(reference);
  if (it == _payloads.end()) {
    return false;
  }
  it->second.bytes = std::move(bytes);
  return true;
}

DeleteResult MemoryRelocationStore::remove(const Key& reference, DeadlineUs /*deadline_us*/) {
  if (auto error = validate_key(reference)) {
    return *error;
  }
  const StoreNowMs now_ms = now();
  drop_expired(now_ms);
  const auto it = _payloads.find(reference);
  if (it == _payloads.end()) {
    return Deleted{false, now_ms};
  }
  erase(it);
  SPOTCHECK_ASSERT_ABORT(_payloads.count(reference) == 0);
  return Deleted{true, now_ms};
}

}  // namespace spotcheck::store::memory
