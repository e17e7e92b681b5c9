// Property `object-timers` (spec §1.3, §5, §9.2: a relocation captures the not-yet-executed queue
// and timers and the target restores them): every timer callback an instance starts runs at most
// once — wherever its object is by then — and is never lost unless the spec lets it go.
//
// Judged from the object runtime's events. object.timer_started names a timer by its identity (the
// host run that started it, its timer stream and number), which a relocation keeps; object.turn of
// a timer names the same identity. A timer turn run again, or one never started, is a violation.
// A timer may go unrun only when what held it went: its instance was removed (object.deactivated
// for any reason but "moved"), its turn was refused (object.turn_refused: admission, no room), the
// move that carried it failed or ended unsettled (relocation.failed, relocation.handed_over
// "unsettled"), or a process that held its object died (kill, exit: any node with an event of the
// object since). At the end of a run a timer due kDueGraceUs before the end that did none of these
// was lost.
//
// Online: one entry per timer started and not yet run or excused, and one per timer run (to tell a
// second run); per object the timers pending, and per node the objects it held.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class ObjectTimersChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "object-timers";
  // A timer still pending this long after it was due when the run ends was lost (a moved timer is
  // re-armed after the handoff; a paused node runs it when the pause ends).
  static constexpr TimeUs kDueGraceUs = 15'000'000;

  explicit ObjectTimersChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;
  std::optional<std::string> finish(const RunEnd& end) override;

 private:
  struct Pending {
    std::uint64_t started_event = 0;
    TimeUs due_us = 0;  // virtual time it was started plus its delay
    std::string object;
    std::string text;   // "timer 3 of host run …/2 (stream 5) of actor 'player:1'"
  };

  std::optional<std::string> on_started(const sim::TraceEvent& event);
  std::optional<std::string> on_turn(const sim::TraceEvent& event);
  void on_refused(const sim::TraceEvent& event);
  void touch(std::int32_t node, const std::string& object);
  // Every pending timer of `object` goes: what held it went.
  void excuse_object(const std::string& object);
  void excuse(const std::string& timer);

  std::map<std::string, Pending> _pending;            // ordered: finish() reports the first
  StringSet _ran;                                     // timers that ran
  StringSet _started;                                 // every timer started
  StringMap<std::set<std::string>> _object_timers;    // object -> its pending timers
  std::map<std::int32_t, std::set<std::string>> _node_objects;  // node -> objects it held since its start
};

}  // namespace spotcheck::properties
