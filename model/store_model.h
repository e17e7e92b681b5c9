// model::StoreModel — the abstract reference model of the Location Store (spec §2.1, §3.1–§3.3,
// §6.1, §6.2): a map of key -> (bytes, version), bounded decimal counters, all-or-nothing
// conditional writes and same-point-in-time scans, as a small pure state machine.
//
// It is an oracle: each observe_*() call takes a request and the result a provider returned,
// says whether that result is legal in the current model state (nullopt) or what is wrong
// (a description), and advances the model with the result. The model cannot know the
// provider's version numbers; it learns them from results and checks their structure: non-zero,
// never reused for a key, and stable until the key changes.
//
// The model observes at the store, where every outcome is determinate: an Indeterminate result
// (a lost reply seen by a client) is not an outcome of the store and is reported as not modelled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "impl/store/spi/location_store.h"

namespace spotcheck::model {

using store::Bytes;
using store::Key;
using store::StoreNowMs;
using store::StoreVersion;

struct ModelRecord {
  Bytes value;
  StoreVersion version;  // as issued by the provider
  friend bool operator==(const ModelRecord&, const ModelRecord&) = default;
};

// The outcome class the model expects for a write.
struct ExpectApplied {
  std::vector<std::optional<std::int64_t>> counters;  // per mutation: the counter after an Increment
};
struct ExpectConflict {
  store::Conflict::Reason reason = store::Conflict::Reason::kVersionMismatch;
  std::size_t index = 0;
};
struct ExpectStoreError {
  store::StoreErrorKind kind = store::StoreErrorKind::kInvalidArgument;
};
using WriteExpectation = std::variant<ExpectApplied, ExpectConflict, ExpectStoreError>;

// How scan continuations expire, so the model knows when ScanExpired is required, allowed, or
// wrong. ttl_ms: unused for longer than this, a continuation must be expired. max_live_scans:
// when a scan starts while this many are open, every open scan may have been evicted.
struct ScanExpiryPolicy {
  std::int64_t ttl_ms = 0;
  std::size_t max_live_scans = 0;
};

using ModelScanId = std::uint64_t;

class StoreModel {
 public:
  explicit StoreModel(ScanExpiryPolicy scan_policy) : _scan_policy(scan_policy) {}

  // ---- State -----------------------------------------------------------------------------------
  std::optional<ModelRecord> record(const Key& key) const;
  const std::map<Key, ModelRecord>& records() const { return _records; }

  // ---- Reads and writes ------------------------------------------------------------------------
  WriteExpectation expect_write(const store::WriteRequest& request) const;
  std::optional<std::string> observe_read(const Key& key, const store::ReadResult& result);
  std::optional<std::string> observe_write(const store::WriteRequest& request, const store::WriteResult& result);

  // ---- Same-point-in-time scans ----------------------------------------------------------------
  // Call right before sending the first page request: the model takes its snapshot here.
  ModelScanId open_scan(const store::ScanRequest& first_page);
  // Checks a page (or ScanExpired) of scan `id` for `request`, and advances the scan. A scan
  // whose last page was seen, or that expired, is closed.
  std::optional<std::string> observe_scan_page(ModelScanId id, const store::ScanRequest& request,
                                               const store::ScanResult& result);
  bool scan_open(ModelScanId id) const { return _scans.count(id) == 1; }
  // Whether ScanExpired would be required for scan `id` at store time `now_ms`.
  bool scan_must_expire(ModelScanId id, StoreNowMs now_ms) const;

 private:
  struct ModelScan {
    Key start;
    Key end;
    std::vector<std::pair<Key, ModelRecord>> remaining;  // the snapshot not yet returned
    bool first_page_seen = false;
    StoreNowMs last_used_ms = 0;
    bool may_have_been_evicted = false;
  };

  std::optional<std::string> observe_now(StoreNowMs now_ms, const char* what);
  std::optional<std::string> check_new_version(const Key& key, StoreVersion version) const;
  using Counters = std::vector<std::optional<std::int64_t>>;
  std::optional<std::string> check_applied(const store::WriteRequest& request, const Counters& counters,
                                           const store::Applied& applied);
  void apply(const store::WriteRequest& request, const Counters& counters, const store::Applied& applied);
  static std::optional<std::string> check_page(const ModelScan& scan, const store::ScanRequest& request,
                                               const store::ScanPage& page);

  ScanExpiryPolicy _scan_policy;
  std::map<Key, ModelRecord> _records;
  std::map<Key, std::set<std::uint64_t>> _issued_versions;  // every version seen per key
  std::map<ModelScanId, ModelScan> _scans;
  ModelScanId _next_scan_id = 1;
  StoreNowMs _last_now_ms = 0;
};

}  // namespace spotcheck::model
