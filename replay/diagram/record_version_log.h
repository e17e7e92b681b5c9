// The versions of the store records a violation is about: every write the store applied to a
// Location Store key one of whose parts ('/'-separated) is a subject of the violation (an object
// id: "authority/actor/player:0"; a host run's OwnerId: "owner-lease/<owner>"), from the store's
// own account (store.applied), and the writes a failover undid (store.write_lost, out of
// contract). Bounded: the first kRecordsMax such records, the latest kChangesMax writes of each.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "replay/story/process_names.h"
#include "replay/story/trace_line.h"
#include "reports/record_versions.h"

namespace spotcheck::replay {

class RecordVersionLog {
 public:
  static constexpr std::size_t kRecordsMax = 12;
  static constexpr std::size_t kChangesMax = 24;

  RecordVersionLog(const ProcessNames& names, std::vector<std::string> subjects)
      : _names(names), _subjects(std::move(subjects)) {}

  void read(const TraceLine& line);
  reports::RecordVersions versions() const;

 private:
  void add(const std::string& key, reports::RecordChange change);

  const ProcessNames& _names;
  std::vector<std::string> _subjects;
  std::vector<reports::RecordHistory> _records;  // in the order first written
  std::map<std::string, std::size_t> _record_of_key;
  std::set<std::string> _keys_left_out;
};

}  // namespace spotcheck::replay
