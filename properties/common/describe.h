// Text pieces of violation messages: where an event happened and which object it was about.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/trace/trace_event.h"

namespace spotcheck::properties {

// "#<index> t=<seconds>s node <n>" ("world" for kWorldNode).
std::string where(const sim::TraceEvent& event);
// "#<index>" of an earlier event.
std::string event_ref(std::uint64_t index);
// "actor 'player:1'"
std::string describe_object(std::string_view kind, std::string_view id);
// The map key of an object: kind \0 id (an Id never holds \0, spec §3.3).
std::string object_key(std::string_view kind, std::string_view id);
// The map key of one incarnation (object, ObjectGeneration) or owner epoch (…, owner gen).
std::string incarnation_key(std::string_view object, std::int64_t object_gen);
std::string epoch_key(std::string_view object, std::int64_t object_gen, std::int64_t owner_gen);
// The map key of one host run's view of an object: owner \0 lease_gen \0 object.
std::string host_run_object_key(std::string_view owner, std::int64_t lease_gen, std::string_view object);
// "store ms 1764417601234 (t=1.234s)"-style text for a StoreNow given the clock's epoch.
std::string store_ms_text(std::int64_t store_ms, std::int64_t epoch_ms);

}  // namespace spotcheck::properties
