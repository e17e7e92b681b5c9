#include "model/store_model.h"

#include <sstream>

#include "impl/store/spi/counter_text.h"
#include "impl/check/check.h"

namespace spotcheck::model {

namespace {

using store::Conflict;

const Key& key_of(const store::Condition& condition) {
  return std::visit([](const auto& c) -> const Key& { return c.key; }, condition);
}
const Key& key_of(const store::Mutation& mutation) {
  return std::visit([](const auto& m) -> const Key& { return m.key; }, mutation);
}

std::string describe_conflict(Conflict::Reason reason, std::size_t index) {
  return std::string(reason == Conflict::Reason::kVersionMismatch ? "Conflict{version-mismatch, "
                                                                  : "Conflict{bound-exceeded, ") +
         std::to_string(index) + "}";
}

std::string describe(const WriteExpectation& expectation) {
  if (std::holds_alternative<ExpectApplied>(expectation)) {
    return "Applied";
  }
  if (const auto* conflict = std::get_if<ExpectConflict>(&expectation)) {
    return describe_conflict(conflict->reason, conflict->index);
  }
  return std::string("StoreError{") + store::to_string(std::get<ExpectStoreError>(expectation).kind) + "}";
}

std::string describe(const store::WriteResult& result) {
  if (std::holds_alternative<store::Applied>(result)) {
    return "Applied";
  }
  if (const auto* conflict = std::get_if<Conflict>(&result)) {
    return describe_conflict(conflict->reason, conflict->index);
  }
  if (const auto* error = std::get_if<store::StoreError>(&result)) {
    return std::string("StoreError{") + store::to_string(error->kind) + ": " + error->message + "}";
  }
  return "Indeterminate";
}

}  // namespace

std::optional<ModelRecord> StoreModel::record(const Key& key) const {
  const auto it = _records.find(key);
  if (it == _records.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::optional<std::string> StoreModel::observe_now(StoreNowMs now_ms, const char* what) {
  if (now_ms < _last_now_ms) {
    return std::string(what) + ": StoreNow went back from " + std::to_string(_last_now_ms) + " to " +
           std::to_string(now_ms);
  }
  _last_now_ms = now_ms;
  return std::nullopt;
}

std::optional<std::string> StoreModel::check_new_version(const Key& key, StoreVersion version) const {
  if (version.value == 0) {
    return "key '" + key + "': version 0 issued";
  }
  const auto it = _issued_versions.find(key);
  if (it != _issued_versions.end() && it->second.count(version.value) != 0) {
    return "key '" + key + "': version " + std::to_string(version.value) + " issued twice";
  }
  return std::nullopt;
}

// ---- Reads and writes ----------------------------------------------------------------------------

WriteExpectation StoreModel::expect_write(const store::WriteRequest& request) const {
  if (store::validate(request).has_value()) {
    return ExpectStoreError{store::StoreErrorKind::kInvalidArgument};
  }
  for (std::size_t i = 0; i < request.conditions.size(); ++i) {
    const auto current = record(key_of(request.conditions[i]));
    bool holds = false;
    if (const auto* expect = std::get_if<store::ExpectVersion>(&request.conditions[i])) {
      holds = current.has_value() && current->version == expect->version;
    } else {
      holds = !current.has_value();
    }
    if (!holds) {
      return ExpectConflict{Conflict::Reason::kVersionMismatch, i};
    }
  }
  ExpectApplied applied;
  for (std::size_t i = 0; i < request.mutations.size(); ++i) {
    const auto* increment = std::get_if<store::Increment>(&request.mutations[i]);
    if (increment == nullptr) {
      applied.counters.emplace_back(std::nullopt);
      continue;
    }
    std::int64_t current = 0;
    if (const auto existing = record(increment->key)) {
      const auto parsed = store::parse_counter(existing->value);
      if (!parsed.has_value()) {
        return ExpectStoreError{store::StoreErrorKind::kInvalidArgument};
      }
      current = *parsed;
    }
    std::int64_t next = 0;
    if (__builtin_add_overflow(current, increment->delta, &next) || next < increment->min ||
        next > increment->max) {
      return ExpectConflict{Conflict::Reason::kBoundExceeded, i};
    }
    applied.counters.emplace_back(next);
  }
  SPOTCHECK_ASSERT_ABORT(applied.counters.size() == request.mutations.size());
  return applied;
}

std::optional<std::string> StoreModel::observe_read(const Key& key, const store::ReadResult& result) {
  if (store::validate_key(key).has_value()) {
    const auto* error = std::get_if<store::StoreError>(&result);
    if (error == nullptr || error->kind != store::StoreErrorKind::kInvalidArgument) {
      return "read of an invalid key: expected StoreError{invalid-argument}";
    }
    return std::nullopt;
  }
  const auto expected = record(key);
  if (const auto* missing = std::get_if<store::Missing>(&result)) {
    if (expected.has_value()) {
      return "read '" + key + "': Missing, but the model holds version " +
             std::to_string(expected->version.value);
    }
    return observe_now(missing->now_ms, "read");
  }
  if (const auto* found = std::get_if<store::Found>(&result)) {
    if (!expected.has_value()) {
      return "read '" + key + "': Found version " + std::to_string(found->version.value) +
             ", but the model holds no record";
    }
    if (found->value != expected->value) {
      return "read '" + key + "': bytes differ from the model's";
    }
    if (found->version != expected->version) {
      return "read '" + key + "': version " + std::to_string(found->version.value) + ", model has " +
             std::to_string(expected->version.value);
    }
    return observe_now(found->now_ms, "read");
  }
  return "read '" + key + "': unexpected StoreError " + store::to_string(std::get<store::StoreError>(result).kind);
}

std::optional<std::string> StoreModel::observe_write(const store::WriteRequest& request,
                                                     const store::WriteResult& result) {
  const WriteExpectation expected = expect_write(request);
  const std::string mismatch = "write: expected " + describe(expected) + ", provider returned " + describe(result);
  if (std::holds_alternative<store::Indeterminate>(result)) {
    return "write: Indeterminate is not a store outcome and is not modelled";
  }
  if (const auto* error = std::get_if<ExpectStoreError>(&expected)) {
    const auto* got = std::get_if<store::StoreError>(&result);
    if (got == nullptr || got->kind != error->kind) {
      return mismatch;
    }
    return std::nullopt;
  }
  if (const auto* conflict = std::get_if<ExpectConflict>(&expected)) {
    const auto* got = std::get_if<Conflict>(&result);
    if (got == nullptr || got->reason != conflict->reason || got->index != conflict->index) {
      return mismatch;
    }
    return observe_now(got->now_ms, "write");
  }
  const auto* applied = std::get_if<store::Applied>(&result);
  if (applied == nullptr) {
    return mismatch;
  }
  const auto& counters = std::get<ExpectApplied>(expected).counters;
  // Check every outcome before changing anything, then apply all: the model is all-or-nothing too.
  if (auto problem = check_applied(request, counters, *applied)) {
    return problem;
  }
  apply(request, counters, *applied);
  return std::nullopt;
}

std::optional<std::string> StoreModel::check_applied(const store::WriteRequest& request, const Counters& counters,
                                                     const store::Applied& applied) {
  if (applied.outcomes.size() != request.mutations.size()) {
    return "write: " + std::to_string(applied.outcomes.size()) + " outcomes for " +
           std::to_string(request.mutations.size()) + " mutations";
  }
  for (std::size_t i = 0; i < request.mutations.size(); ++i) {
    const Key& key = key_of(request.mutations[i]);
    const store::MutationOutcome& outcome = applied.outcomes[i];
    if (std::holds_alternative<store::Delete>(request.mutations[i])) {
      if (outcome.version.value != 0) {
        return "write: Delete of '" + key + "' reported a non-zero version";
      }
      continue;
    }
    if (auto problem = check_new_version(key, outcome.version)) {
      return "write: " + *problem;
    }
    if (counters[i].has_value() && outcome.counter != *counters[i]) {
      return "write: Increment of '" + key + "' gave " + std::to_string(outcome.counter) + ", model expects " +
             std::to_string(*counters[i]);
    }
  }
  return observe_now(applied.now_ms, "write");
}

void StoreModel::apply(const store::WriteRequest& request, const Counters& counters, const store::Applied& applied) {
  for (std::size_t i = 0; i < request.mutations.size(); ++i) {
    const store::Mutation& mutation = request.mutations[i];
    const Key& key = key_of(mutation);
    const StoreVersion version = applied.outcomes[i].version;
    if (std::holds_alternative<store::Delete>(mutation)) {
      _records.erase(key);
      continue;
    }
    Bytes value;
    if (const auto* put = std::get_if<store::Put>(&mutation)) {
      value = put->value;
    } else {
      SPOTCHECK_ASSERT_ABORT(counters[i].has_value());
      value = std::to_string(*counters[i]);
    }
    _records[key] = ModelRecord{std::move(value), version};
    const bool fresh = _issued_versions[key].insert(version.value).second;
    SPOTCHECK_ASSERT_ABORT(fresh);
  }
}

// ---- Same-point-in-time scans --------------------------------------------------------------------

ModelScanId StoreModel::open_scan(const store::ScanRequest& first_page) {
  SPOTCHECK_ASSERT_ABORT(!first_page.continuation.has_value());
  if (_scan_policy.max_live_scans > 0 && _scans.size() >= _scan_policy.max_live_scans) {
    for (auto& [id, scan] : _scans) {
      scan.may_have_been_evicted = true;
    }
  }
  ModelScan scan;
  scan.start = first_page.start;
  scan.end = first_page.end;
  for (auto it = _records.lower_bound(first_page.start); it != _records.end(); ++it) {
    if (!first_page.end.empty() && !(it->first < first_page.end)) {
      break;
    }
    scan.remaining.emplace_back(it->first, it->second);
  }
  const ModelScanId id = _next_scan_id++;
  _scans.emplace(id, std::move(scan));
  return id;
}

bool StoreModel::scan_must_expire(ModelScanId id, StoreNowMs now_ms) const {
  const auto it = _scans.find(id);
  SPOTCHECK_ASSERT_ABORT(it != _scans.end());
  return it->second.first_page_seen && now_ms - it->second.last_used_ms > _scan_policy.ttl_ms;
}

std::optional<std::string> StoreModel::observe_scan_page(ModelScanId id, const store::ScanRequest& request,
                                                         const store::ScanResult& result) {
  const auto it = _scans.find(id);
  SPOTCHECK_ASSERT_ABORT(it != _scans.end());
  ModelScan& scan = it->second;
  SPOTCHECK_ASSERT_ABORT(scan.start == request.start);
  SPOTCHECK_ASSERT_ABORT(scan.end == request.end);
  SPOTCHECK_ASSERT_ABORT(scan.first_page_seen == request.continuation.has_value());

  if (store::validate(request).has_value()) {
    _scans.erase(it);
    const auto* error = std::get_if<store::StoreError>(&result);
    if (error == nullptr || error->kind != store::StoreErrorKind::kInvalidArgument) {
      return "scan: invalid request, expected StoreError{invalid-argument}";
    }
    return std::nullopt;
  }
  if (const auto* expired = std::get_if<store::ScanExpired>(&result)) {
    const bool may_expire = scan.first_page_seen &&
                            (scan_must_expire(id, expired->now_ms) || scan.may_have_been_evicted);
    _scans.erase(it);
    if (!may_expire) {
      return "scan: ScanExpired for a live continuation";
    }
    return observe_now(expired->now_ms, "scan");
  }
  const auto* page = std::get_if<store::ScanPage>(&result);
  if (page == nullptr) {
    _scans.erase(it);
    return std::string("scan: unexpected StoreError ") + store::to_string(std::get<store::StoreError>(result).kind);
  }
  if (scan_must_expire(id, page->now_ms)) {
    _scans.erase(it);
    return "scan: a page for a continuation unused longer than the TTL (should be ScanExpired)";
  }
  if (auto problem = check_page(scan, request, *page)) {
    return problem;
  }
  const std::size_t count = page->entries.size();
  const bool more = count < scan.remaining.size();
  if (auto problem = observe_now(page->now_ms, "scan")) {
    return problem;
  }
  scan.remaining.erase(scan.remaining.begin(), scan.remaining.begin() + static_cast<std::ptrdiff_t>(count));
  scan.first_page_seen = true;
  scan.last_used_ms = page->now_ms;
  scan.may_have_been_evicted = false;
  if (!more) {
    _scans.erase(it);
  }
  return std::nullopt;
}

// A page against the snapshot: its size bounds, the next keys in order with their values and
// versions, and a continuation exactly when entries remain.
std::optional<std::string> StoreModel::check_page(const ModelScan& scan, const store::ScanRequest& request,
                                                  const store::ScanPage& page) {
  const std::size_t count = page.entries.size();
  if (count > request.max_entries) {
    return "scan: " + std::to_string(count) + " entries on a page of at most " + std::to_string(request.max_entries);
  }
  if (count > scan.remaining.size()) {
    return "scan: " + std::to_string(count) + " entries, but only " + std::to_string(scan.remaining.size()) +
           " remain in the snapshot";
  }
  if (count == 0 && !scan.remaining.empty()) {
    return "scan: an empty page while the snapshot still holds entries";
  }
  std::size_t page_bytes = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const store::ScanEntry& got = page.entries[i];
    const auto& [key, want] = scan.remaining[i];
    if (got.key != key) {
      return "scan: entry " + std::to_string(i) + " is '" + got.key + "', the snapshot's next key is '" + key + "'";
    }
    if (got.value != want.value || got.version != want.version) {
      return "scan: '" + key + "' differs from the snapshot (value or version)";
    }
    page_bytes += got.key.size() + got.value.size();
  }
  if (count > 1 && page_bytes > store::kMaxScanPageBytes) {
    return "scan: page larger than 4 MiB";
  }
  const bool more = count < scan.remaining.size();
  if (more != page.continuation.has_value()) {
    return more ? "scan: no continuation, but the snapshot holds more entries"
                : "scan: a continuation after the snapshot's last entry";
  }
  if (page.continuation.has_value() &&
      (page.continuation->empty() || page.continuation->size() > store::kMaxContinuationBytes)) {
    return "scan: continuation of " + std::to_string(page.continuation->size()) + " bytes";
  }
  return std::nullopt;
}

}  // namespace spotcheck::model
