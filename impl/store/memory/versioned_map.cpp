#include "impl/store/memory/versioned_map.h"

#include <algorithm>

#include "impl/check/check.h"

namespace spotcheck::store::memory {

const VersionedMap::Revision* VersionedMap::visible(const History& history, CommitSeq at) {
  SPOTCHECK_ASSERT_ABORT(!history.empty());
  // Newest revision with seq <= at. Histories are short (one revision unless snapshots live).
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    if (it->seq <= at) {
      return &*it;
    }
  }
  return nullptr;
}

std::optional<Record> VersionedMap::current(const Key& key) const {
  const auto it = _histories.find(key);
  if (it == _histories.end()) {
    return std::nullopt;
  }
  SPOTCHECK_ASSERT_ABORT(!it->second.empty());
  return it->second.back().record;
}

std::optional<Record> VersionedMap::as_of(const Key& key, CommitSeq at) const {
  const auto it = _histories.find(key);
  if (it == _histories.end()) {
    return std::nullopt;
  }
  const Revision* revision = visible(it->second, at);
  if (revision == nullptr) {
    return std::nullopt;
  }
  return revision->record;
}

void VersionedMap::apply(const Key& key, CommitSeq seq, std::optional<Record> record,
                         CommitSeq prune_floor) {
  SPOTCHECK_ASSERT_ABORT(seq >= _last_seq);
  SPOTCHECK_ASSERT_ABORT(seq > 0);
  SPOTCHECK_ASSERT_ABORT(prune_floor <= seq);
  _last_seq = seq;
  if (record.has_value()) {
    SPOTCHECK_ASSERT_ABORT(record->value != nullptr);
    SPOTCHECK_ASSERT_ABORT(record->version.value != 0);
  }
  auto it = _histories.find(key);
  if (it == _histories.end()) {
    if (!record.has_value()) {
      return;  // deleting an absent key changes nothing
    }
    it = _histories.emplace(key, History{}).first;
  } else {
    SPOTCHECK_ASSERT_ABORT(it->second.back().seq < seq);  // each key at most once per commit
    if (!record.has_value() && !it->second.back().record.has_value()) {
      return;  // already deleted
    }
  }
  it->second.push_back(Revision{seq, std::move(record)});
  ++_revision_count;
  if (prune_key(it, prune_floor)) {
    _keys_with_old_revisions.insert(key);
  } else {
    _keys_with_old_revisions.erase(key);
  }
}

bool VersionedMap::prune_key(std::map<Key, History>::iterator it, CommitSeq prune_floor) {
  History& history = it->second;
  SPOTCHECK_ASSERT_ABORT(!history.empty());
  // Index of the newest revision at or below the floor: everything older is invisible to every
  // live snapshot (all are >= floor) and to the current state.
  std::size_t keep_from = 0;
  bool any_at_or_below = false;
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (history[i].seq <= prune_floor) {
      keep_from = i;
      any_at_or_below = true;
    }
  }
  if (any_at_or_below && !history[keep_from].record.has_value()) {
    ++keep_from;  // a tombstone at or below the floor reads the same as no revision
  }
  if (keep_from > 0) {
    history.erase(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(keep_from));
    SPOTCHECK_ASSERT_ABORT(_revision_count >= keep_from);
    _revision_count -= keep_from;
  }
  if (history.empty()) {
    _histories.erase(it);
    return false;
  }
  const bool only_current_live_record = history.size() == 1 && history.front().record.has_value();
  return !only_current_live_record;
}

void VersionedMap::prune(CommitSeq prune_floor) {
  SPOTCHECK_ASSERT_ABORT(prune_floor <= _last_seq);
  // Bound: one pass over the keys that hold old revisions.
  for (auto key_it = _keys_with_old_revisions.begin(); key_it != _keys_with_old_revisions.end();) {
    auto it = _histories.find(*key_it);
    SPOTCHECK_ASSERT_ABORT(it != _histories.end());
    if (prune_key(it, prune_floor)) {
      ++key_it;
    } else {
      key_it = _keys_with_old_revisions.erase(key_it);
    }
  }
  SPOTCHECK_ASSERT_ABORT(_keys_with_old_revisions.size() <= _histories.size());
}

}  // namespace spotcheck::store::memory
