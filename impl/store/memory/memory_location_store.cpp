#include "impl/store/memory/memory_location_store.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "impl/check/check.h"
#include "impl/store/memory/counter_codec.h"

namespace spotcheck::store::memory {

namespace {

const Key& key_of(const Condition& condition) {
  return std::visit([](const auto& c) -> const Key& { return c.key; }, condition);
}
const Key& key_of(const Mutation& mutation) {
  return std::visit([](const auto& m) -> const Key& { return m.key; }, mutation);
}

}  // namespace

MemoryLocationStore::MemoryLocationStore(StoreClock clock, MemoryStoreOptions options)
    : _clock(std::move(clock)),
      _options(options),
      _scans(options.scan_continuation_ttl_ms, options.max_live_scans),
      _tokens(options.continuation_key_seed) {
  SPOTCHECK_ASSERT_ABORT(static_cast<bool>(_clock));
}

StoreNowMs MemoryLocationStore::now() {
  _last_now_ms = std::max(_last_now_ms, _clock());
  return _last_now_ms;
}

CommitSeq MemoryLocationStore::prune_floor() const {
  const CommitSeq floor = _scans.oldest_snapshot().value_or(_last_commit);
  SPOTCHECK_ASSERT_ABORT(floor <= _last_commit);
  return floor;
}

void MemoryLocationStore::release_unneeded_revisions() {
  const CommitSeq floor = prune_floor();
  SPOTCHECK_ASSERT_ABORT(floor >= _pruned_floor);  // snapshots only get newer
  if (floor > _pruned_floor) {
    _records.prune(floor);
    _pruned_floor = floor;
  }
}

ReadResult MemoryLocationStore::read(const Key& key, DeadlineUs /*deadline_us*/) {
  if (auto error = validate_key(key)) {
    return *error;
  }
  const StoreNowMs now_ms = now();
  const std::optional<Record> record = _records.current(key);
  if (!record.has_value()) {
    return Missing{now_ms};
  }
  SPOTCHECK_ASSERT_ABORT(record->version.value != 0);
  SPOTCHECK_ASSERT_ABORT(record->version.value <= _last_version);
  return Found{*record->value, record->version, now_ms};
}

std::optional<StoreVersion> MemoryLocationStore::current_version(const Key& key) const {
  const std::optional<Record> record = _records.current(key);
  if (!record.has_value()) {
    return std::nullopt;
  }
  return record->version;
}

WriteResult MemoryLocationStore::write(const WriteRequest& request, DeadlineUs /*deadline_us*/) {
  if (auto error = validate(request)) {
    return *error;
  }
  const StoreNowMs now_ms = now();
  _scans.expire(now_ms);
  release_unneeded_revisions();
  if (const std::optional<std::size_t> failed = first_failing_condition(request)) {
    return Conflict{Conflict::Reason::kVersionMismatch, *failed, now_ms};
  }
  WritePlan plan = plan_mutations(request, now_ms);
  if (plan.refusal.has_value()) {
    return std::move(*plan.refusal);
  }
  Applied applied = commit(request, std::move(plan.mutations), now_ms);
  if (applied.outcomes.size() < request.mutations.size()) {
    SPOTCHECK_ASSERT_ABORT(_faults.partial_write_on_bound_exceeded);
    return Conflict{Conflict::Reason::kBoundExceeded, applied.outcomes.size(), now_ms};
  }
  return applied;
}

// 1. Every condition, in order, against the current state: the index of the first that fails.
std::optional<std::size_t> MemoryLocationStore::first_failing_condition(
    const WriteRequest& request) const {
  for (std::size_t i = 0; i < request.conditions.size(); ++i) {
    const std::optional<Record> current = _records.current(key_of(request.conditions[i]));
    const bool holds = std::visit(
        [&](const auto& condition) {
          using T = std::decay_t<decltype(condition)>;
          if constexpr (std::is_same_v<T, ExpectVersion>) {
            return current.has_value() && current->version == condition.version;
          } else {
            return !current.has_value();
          }
        },
        request.conditions[i]);
    if (!holds) {
      return i;
    }
  }
  return std::nullopt;
}

// 2. Plan every mutation; nothing changes until all of them are known to be possible.
MemoryLocationStore::WritePlan MemoryLocationStore::plan_mutations(const WriteRequest& request,
                                                                   StoreNowMs now_ms) const {
  WritePlan plan;
  plan.mutations.reserve(request.mutations.size());
  for (std::size_t i = 0; i < request.mutations.size(); ++i) {
    const Mutation& mutation = request.mutations[i];
    PlannedMutation planned;
    if (const auto* put = std::get_if<Put>(&mutation)) {
      planned.new_value = put->value;  // the provider keeps its own copy
    } else if (const auto* increment = std::get_if<Increment>(&mutation)) {
      std::variant<std::int64_t, WriteResult> next = plan_increment(*increment, i, now_ms);
      if (auto* refusal = std::get_if<WriteResult>(&next)) {
        if (_faults.partial_write_on_bound_exceeded && i > 0 &&
            std::holds_alternative<Conflict>(*refusal)) {
          break;  // deliberate bug: keep the mutations before the failing one
        }
        plan.refusal = std::move(*refusal);
        return plan;
      }
      planned.counter = std::get<std::int64_t>(next);
      planned.new_value = format_counter(planned.counter);
    }
    plan.mutations.push_back(std::move(planned));
  }
  return plan;
}

// The counter an Increment leaves, or why it cannot apply (not a counter; a bound exceeded).
std::variant<std::int64_t, WriteResult> MemoryLocationStore::plan_increment(
    const Increment& increment, std::size_t index, StoreNowMs now_ms) const {
  std::int64_t current = 0;
  if (const std::optional<Record> record = _records.current(increment.key)) {
    const std::optional<std::int64_t> parsed = parse_counter(*record->value);
    if (!parsed.has_value()) {
      return WriteResult{StoreError{StoreErrorKind::kInvalidArgument,
                                    "Increment on a value that is not a decimal 64-bit counter"}};
    }
    current = *parsed;
  }
  const std::optional<std::int64_t> next =
      bounded_add(current, increment.delta, increment.min, increment.max);
  if (!next.has_value()) {
    return WriteResult{Conflict{Conflict::Reason::kBoundExceeded, index, now_ms}};
  }
  return *next;
}

// 3. Commit: one commit sequence number for every mutation, a fresh version per stored value.
Applied MemoryLocationStore::commit(const WriteRequest& request,
                                    std::vector<PlannedMutation> plan, StoreNowMs now_ms) {
  SPOTCHECK_ASSERT_ABORT(plan.size() <= request.mutations.size());
  const CommitSeq seq = ++_last_commit;
  const CommitSeq floor = prune_floor();
  Applied applied;
  applied.now_ms = now_ms;
  applied.outcomes.reserve(plan.size());
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const Key& key = key_of(request.mutations[i]);
    MutationOutcome outcome;
    outcome.counter = plan[i].counter;
    if (plan[i].new_value.has_value()) {
      outcome.version = StoreVersion{++_last_version};
      _records.apply(key, seq, Record{std::make_shared<const Bytes>(std::move(*plan[i].new_value)),
                                      outcome.version},
                     floor);
    } else {
      _records.apply(key, seq, std::nullopt, floor);
    }
    applied.outcomes.push_back(outcome);
  }
  return applied;
}

ScanResult MemoryLocationStore::scan(const ScanRequest& request, DeadlineUs /*deadline_us*/) {
  if (auto error = validate(request)) {
    return *error;
  }
  const StoreNowMs now_ms = now();
  _scans.expire(now_ms);
  release_unneeded_revisions();

  LiveScan* live = nullptr;
  std::optional<Key> after;
  if (!request.continuation.has_value()) {
    live = &_scans.begin(_last_commit, request.start, request.end, now_ms);
  } else {
    const std::optional<ScanPosition> position =
        _tokens.decode(*request.continuation, request.start, request.end);
    if (!position.has_value()) {
      return ScanExpired{now_ms};
    }
    live = _scans.resume(position->scan_id, request.start, request.end, now_ms);
    if (live == nullptr) {
      release_unneeded_revisions();
      return ScanExpired{now_ms};
    }
    SPOTCHECK_ASSERT_ABORT(position->last_key >= request.start);
    after = position->last_key;
  }
  SPOTCHECK_ASSERT_ABORT(live != nullptr);

  ScanPage page;
  page.now_ms = now_ms;
  std::size_t page_bytes = 0;
  bool more = false;
  const std::optional<CommitSeq> at =
      _faults.scan_sees_later_writes ? std::nullopt : std::optional<CommitSeq>(live->snapshot);
  // Bound: visits at most every key in the range once.
  _records.visit_range(request.start, after, request.end, at, [&](const Key& key, const Record& record) {
    const std::size_t entry_bytes = key.size() + record.value->size();
    const bool full = page.entries.size() >= request.max_entries;
    const bool too_big = !page.entries.empty() && page_bytes + entry_bytes > kMaxScanPageBytes;
    if (full || too_big) {
      more = true;
      return false;
    }
    SPOTCHECK_ASSERT_ABORT(!after.has_value() || *after < key);
    page_bytes += entry_bytes;
    page.entries.push_back(ScanEntry{key, *record.value, record.version});
    return true;
  });
  SPOTCHECK_ASSERT_ABORT(page.entries.size() <= request.max_entries);
  SPOTCHECK_ASSERT_ABORT(!more || !page.entries.empty());
  if (more) {
    page.continuation = _tokens.encode(ScanPosition{live->scan_id, page.entries.back().key},
                                       request.start, request.end);
    SPOTCHECK_ASSERT_ABORT(page.continuation->size() <= kMaxContinuationBytes);
  } else {
    _scans.finish(live->scan_id);
    release_unneeded_revisions();
  }
  return page;
}

MemoryLocationStore::Stats MemoryLocationStore::stats() const {
  return Stats{_records.key_count(), _records.revision_count(), _scans.size(), _last_commit};
}

}  // namespace spotcheck::store::memory
