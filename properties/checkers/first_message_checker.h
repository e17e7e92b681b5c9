// Property `instance-first-message` (spec §7.1: "Restores starting from the first message using
// the stored data. No new message is received before that."): on every in-process instance of an
// Instance Spot — one (SpotId, ObjectGeneration) in one host run — the first message runs before
// any other message. That holds for the instance the activation made and for the one a restarted
// node restores from the stored request after its earlier run died past Ready (§7.1).
//
// Judged from `instance.first_message_run` and `instance.message_run`, which name the running host
// run (`owner`, `lease_gen`): an `instance.message_run` of (id, object_gen) by a host run with no
// earlier `instance.first_message_run` of (id, object_gen) by that same host run is a violation.
// (How often each runs is at-most-once's.)
//
// At the end of the run (the liveness phase has let every dead node come back and recover):
// every incarnation that reached Ready (`instance.ready`) has run its first message somewhere —
// restored after a crash if need be — unless the restarted node could not read its stored request
// or its factory refused (`instance.recovered` `payload_unreadable` / `factory_rejected`, the row
// deleted), or found it permanently missing or other bytes (`data_lost`, §10: DataLost recorded in
// the row; store-truth holds that claim against the Relocation Store's account).
//
// Online and linear: one entry per (host run, incarnation) whose first message ran, one per
// Ready incarnation still waiting for its first message.
#pragma once

#include <optional>
#include <string>

#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class FirstMessageChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "instance-first-message";

  explicit FirstMessageChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;
  std::optional<std::string> finish(const RunEnd& end) override;

 private:
  std::optional<std::string> on_message(const sim::TraceEvent& event, bool first);

  StringSet _first_runs;                 // (host run, incarnation) whose first message ran
  StringMap<std::uint64_t> _waiting;     // incarnation -> its instance.ready, until a first message ran
};

}  // namespace spotcheck::properties
