// The scans of the in-memory store that still hold a snapshot. Bounded in number (the least
// recently used is evicted) and in time (a scan unused for longer than the TTL expires); a scan
// that served its last page is released at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

#include "impl/store/memory/versioned_map.h"
#include "impl/store/spi/types.h"

namespace spotcheck::store::memory {

struct LiveScan {
  std::uint64_t scan_id = 0;
  CommitSeq snapshot = 0;  // the last commit the scan sees
  Key start;
  Key end;
  StoreNowMs last_used_ms = 0;
};

class LiveScans {
 public:
  LiveScans(std::int64_t ttl_ms, std::size_t max_live);

  // Starts a scan of [start, end) at `snapshot`, evicting the least recently used if full.
  LiveScan& begin(CommitSeq snapshot, const Key& start, const Key& end, StoreNowMs now_ms);
  // The live scan `scan_id` of [start, end), marked used at `now_ms`; nullptr if unknown or expired.
  LiveScan* resume(std::uint64_t scan_id, const Key& start, const Key& end, StoreNowMs now_ms);
  void finish(std::uint64_t scan_id);
  // Drops every scan unused for longer than the TTL.
  void expire(StoreNowMs now_ms);
  // The oldest snapshot a live scan holds; nullopt when no scan is live.
  std::optional<CommitSeq> oldest_snapshot() const;

  std::size_t size() const { return _scans.size(); }

 private:
  bool expired(const LiveScan& scan, StoreNowMs now_ms) const;

  std::int64_t _ttl_ms;
  std::size_t _max_live;
  std::uint64_t _next_scan_id = 1;
  std::map<std::uint64_t, LiveScan> _scans;  // by scan id = start order; bound: _max_live
};

}  // namespace spotcheck::store::memory
