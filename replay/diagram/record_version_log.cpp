#include "replay/diagram/record_version_log.h"

#include "impl/platform/event_kinds.h"
#include "replay/diagram/record_subjects.h"

namespace spotcheck::replay {

void RecordVersionLog::read(const TraceLine& line) {
  const bool applied = line.kind == kinds::kStoreApplied;
  if (!applied && line.kind != kinds::kStoreWriteLost) {
    return;
  }
  const std::string key = text_field(line, "key").value_or("");
  if (key.empty() || !key_about_subjects(key, _subjects)) {
    return;
  }
  reports::RecordChange change;
  change.index = line.index;
  change.time_us = line.time_us;
  change.node = applied ? _names.of_pid(number_field(line, "node")) : "";
  change.mutation = applied ? text_field(line, "mutation").value_or("?") : "lost";
  change.old_version = number_field(line, applied ? "old_version" : "lost_version").value_or(0);
  change.new_version = number_field(line, applied ? "new_version" : "restored_version").value_or(0);
  add(key, std::move(change));
}

void RecordVersionLog::add(const std::string& key, reports::RecordChange change) {
  auto at = _record_of_key.find(key);
  if (at == _record_of_key.end()) {
    if (_records.size() == kRecordsMax) {
      _keys_left_out.insert(key);
      return;
    }
    at = _record_of_key.emplace(key, _records.size()).first;
    _records.push_back(reports::RecordHistory{key, {}, 0});
  }
  reports::RecordHistory& record = _records[at->second];
  if (record.changes.size() == kChangesMax) {
    record.changes.erase(record.changes.begin());
    ++record.earlier_left_out;
  }
  record.changes.push_back(std::move(change));
}

reports::RecordVersions RecordVersionLog::versions() const {
  return reports::RecordVersions{_records, _keys_left_out.size()};
}

}  // namespace spotcheck::replay
