// Property `at-most-once` (design "Properties"; spec §7, §7.1): an accepted OperationId runs at
// most once, its reply is delivered at most once.
//
// An operation is identified as the spec scopes it: (source Node RID, source host run
// (OwnerId, LeaseGeneration), OperationId). Judged from the events where the application
// operation actually runs — `instance.first_message_run` and `instance.message_run`, emitted by
// the target right before the handler runs — anywhere in the world: any node, any host run, any
// incarnation (ObjectGeneration). A second run of one operation is a violation, except the one
// re-run spec §7.1 allows: the first message of the same (SpotId, ObjectGeneration) restored
// after the process that ran it died (kill / exit after that run) before the first message's
// completion was recorded (`instance.end_of_use_recorded` of that generation).
// A second `instance.reply_delivered` of one operation at its source is a violation too.
//
// Online and linear: O(1) amortized per event; one small record per operation, one flag per
// (SpotId, ObjectGeneration) whose first message completed, one counter per process.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class AtMostOnceChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "at-most-once";

  explicit AtMostOnceChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  struct Run {
    std::uint64_t event = 0;    // trace index of the run
    std::int32_t process = 0;   // the process (host) it ran in
    std::uint64_t deaths = 0;   // that process's kill/exit count at the run
    std::string node_rid;
    std::string spot_id;
    std::int64_t object_gen = 0;
    bool first = false;
  };

  std::optional<std::string> on_run(const sim::TraceEvent& event, bool first);
  std::optional<std::string> on_reply(const sim::TraceEvent& event);

  StringMap<Run> _runs;                 // by operation key
  StringMap<std::uint64_t> _replies;    // by operation key: the delivering event
  StringSet _completed;                 // incarnations whose first message completion was recorded
  std::map<std::int32_t, std::uint64_t> _deaths;  // by process: kill + exit events seen
};

}  // namespace spotcheck::properties
