// A byte-exact picture of everything stored under a namespace: for each key its type, its
// serialized value (DUMP) and its absolute expiry (PEXPIRETIME). Two dumps are equal iff no key
// was added, removed, retyped, changed or given another expiry in between.
#pragma once

#include <map>
#include <ostream>
#include <string>

#include "impl/store/redis/redis_session.h"

namespace spotcheck::store::redis::testing {

struct KeyDump {
  std::string type;
  std::string serialized;     // DUMP
  long long expire_at_ms = -1;  // PEXPIRETIME: -1 none
  bool operator==(const KeyDump&) const = default;
};

struct NamespaceDump {
  std::map<std::string, KeyDump> keys;
  std::string error;  // one line, when the dump could not be taken
  bool operator==(const NamespaceDump&) const = default;
};

// For gtest messages: the key count (describe_difference() tells what differs).
void PrintTo(const NamespaceDump& dump, std::ostream* out);

// Dumps every key under the session's namespace (SCAN, TYPE, DUMP, PEXPIRETIME).
NamespaceDump dump_namespace(RedisSession& session);
// One line per key that differs ("+ added", "- removed", "~ changed"), for test messages.
std::string describe_difference(const NamespaceDump& before, const NamespaceDump& after);

}  // namespace spotcheck::store::redis::testing
