#include "impl/store/memory/live_scans.h"

#include "impl/check/check.h"

namespace spotcheck::store::memory {

LiveScans::LiveScans(std::int64_t ttl_ms, std::size_t max_live) : _ttl_ms(ttl_ms), _max_live(max_live) {
  SPOTCHECK_ASSERT_ABORT(_ttl_ms > 0);
  SPOTCHECK_ASSERT_ABORT(_max_live > 0);
}

bool LiveScans::expired(const LiveScan& scan, StoreNowMs now_ms) const {
  SPOTCHECK_ASSERT_ABORT(now_ms >= scan.last_used_ms);
  return now_ms - scan.last_used_ms > _ttl_ms;
}

LiveScan& LiveScans::begin(CommitSeq snapshot, const Key& start, const Key& end, StoreNowMs now_ms) {
  expire(now_ms);
  if (_scans.size() >= _max_live) {
    // Evict the least recently used scan (ties: the oldest). Bound: _max_live entries.
    auto victim = _scans.begin();
    for (auto it = _scans.begin(); it != _scans.end(); ++it) {
      if (it->second.last_used_ms < victim->second.last_used_ms) {
        victim = it;
      }
    }
    _scans.erase(victim);
  }
  SPOTCHECK_ASSERT_ABORT(_scans.size() < _max_live);
  if (!_scans.empty()) {
    SPOTCHECK_ASSERT_ABORT(_scans.rbegin()->second.snapshot <= snapshot);
  }
  const std::uint64_t scan_id = _next_scan_id++;
  auto [it, inserted] = _scans.emplace(scan_id, LiveScan{scan_id, snapshot, start, end, now_ms});
  SPOTCHECK_ASSERT_ABORT(inserted);
  return it->second;
}

LiveScan* LiveScans::resume(std::uint64_t scan_id, const Key& start, const Key& end, StoreNowMs now_ms) {
  const auto it = _scans.find(scan_id);
  if (it == _scans.end()) {
    return nullptr;
  }
  if (expired(it->second, now_ms)) {
    _scans.erase(it);
    return nullptr;
  }
  if (it->second.start != start || it->second.end != end) {
    return nullptr;  // the token belongs to another list read
  }
  it->second.last_used_ms = now_ms;
  return &it->second;
}

void LiveScans::finish(std::uint64_t scan_id) {
  const std::size_t erased = _scans.erase(scan_id);
  SPOTCHECK_ASSERT_ABORT(erased == 1);
}

void LiveScans::expire(StoreNowMs now_ms) {
  for (auto it = _scans.begin(); it != _scans.end();) {
    if (expired(it->second, now_ms)) {
      it = _scans.erase(it);
    } else {
      ++it;
    }
  }
  SPOTCHECK_ASSERT_ABORT(_scans.size() <= _max_live);
}

std::optional<CommitSeq> LiveScans::oldest_snapshot() const {
  if (_scans.empty()) {
    return std::nullopt;
  }
  // Scan ids and snapshots grow together, so the first scan holds the oldest snapshot.
  return _scans.begin()->second.snapshot;
}

}  // namespace spotcheck::store::memory
