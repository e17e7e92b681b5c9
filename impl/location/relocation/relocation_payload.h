// The bytes a relocation carries (relocation_runtime.h): the Restore payload — the saved work's
// commands 52 in queue order and the captured timers, one JSON object —, a handoff's work back as the queued
// message it was, the route list Message Follow's hop bookkeeping travels as, and the text that
// names one object in the runtime's maps. Untrusted on the way in: nullopt for anything else.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/location/objects/object_host.h"
#include "impl/location/relocation/target_handoff.h"
#include "impl/platform/transport.h"
#include "impl/records/keys.h"

namespace spotcheck::location::relocation {

std::string object_text(records::AuthorityKind kind, const std::string& id);
// What a Restore payload carries: the saved work and the not-yet-executed timers (§1.3 step 3).
// Under PreserveStateWith it carries the application state too (spec §2).
struct RestorePayload {
  std::vector<HandoffWork> work;
  std::vector<objects::MovedTimer> timers;
  std::optional<std::string> state;
};
std::string encode_payload(const std::vector<objects::QueuedMessage>& saved,
                           const std::vector<objects::MovedTimer>& timers, const std::optional<std::string>& state);
std::optional<RestorePayload> decode_payload(std::string_view payload);
// The queued message a work item is: its command 52, answered to the sender it names.
std::optional<objects::QueuedMessage> queued_of(const HandoffWork& work);
// Routes as comma-separated hex (at most kFollowHopsMax of them).
std::string join_routes(const std::vector<platform::RoutingId>& routes);
std::optional<std::vector<platform::RoutingId>> split_routes(std::string_view text);

}  // namespace spotcheck::location::relocation
