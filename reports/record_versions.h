// The versions of the store records a failure is about, over time (the HTML report's stories):
// for each record (its Location Store key), the writes the store applied to it — when, from
// which node, what kind of write, and its StoreVersion before and after — ending at the
// violation. replay/diagram/ fills it from the store's own account (store.applied); this file
// renders the table. Bounded by what it is given; every text escaped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spotcheck::reports {

struct RecordChange {
  std::uint64_t index = 0;  // the trace event
  std::int64_t time_us = 0;
  std::string node;              // the writer ("" when not known)
  std::string mutation;          // put | delete | increment, or "lost" (a failover undid it: out of contract)
  std::int64_t old_version = 0;  // 0: the record was absent
  std::int64_t new_version = 0;  // 0: deleted
};

struct RecordHistory {
  std::string key;                    // "authority/actor/player:0" ('/' for the key's NUL separators)
  std::vector<RecordChange> changes;  // in time order, the latest ones
  std::uint64_t earlier_left_out = 0;
};

struct RecordVersions {
  std::vector<RecordHistory> records;
  std::uint64_t records_left_out = 0;
};

// A <table class="record-versions">, or a one-line <p> when there is no record.
std::string record_versions_table(const RecordVersions& versions);

}  // namespace spotcheck::reports
