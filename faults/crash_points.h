// The node-crash-point fault (FaultKind::kNodeCrashPoint): a node dies at a named point of the
// protocol — right after the event that marks the point, before it sends anything more — and
// restarts as a new host run after a drawn down time. The points are the rows of spec §7.1's
// table "When the process terminated" for Instance Spot cold activation:
//
//   after-payload-stored  the request stored in the Relocation Store, Creating not yet recorded
//   after-creating        Creating recorded (Reserve applied), Ready not yet recorded
//   after-ready           Ready recorded, the first message not yet run
//
// An observer of the world's events (sim/trace/observer.h): at each such event of one of its
// nodes, in the safety phase, it draws from its own stream ("faults.crash-point") and, with the
// plan's probability, crashes the node there (World::crash) and counts the point's mark
// (crash-after-*). The protocol knows nothing of it: it only emits the events it always emits.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "impl/platform/marks.h"
#include "impl/platform/random.h"
#include "impl/platform/time.h"
#include "sim/world.h"

namespace spotcheck::faults {

struct CrashPoint {
  std::string_view after_kind;  // the event that marks the point (impl/platform/event_kinds.h)
  std::string_view name;        // the crash event's point
  platform::Mark mark;          // counted when the fault crashes a node there
};

// Every crash point, in a fixed order.
std::span<const CrashPoint> crash_points();

class CrashPoints final : public sim::TraceObserver {
 public:
  // Crashes one of `nodes` at a crash point with `probability`, until `stop_us`; each comes back
  // after a down time uniform in [1 ms, down_max_us].
  CrashPoints(sim::World& world, std::vector<sim::ProcessId> nodes, double probability, platform::TimeUs down_max_us,
              platform::TimeUs stop_us);

  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  const CrashPoint* point_of(std::string_view kind) const;
  bool ours(std::int32_t node) const;

  sim::World& _world;
  std::vector<sim::ProcessId> _nodes;
  double _probability;
  platform::TimeUs _down_max_us;
  platform::TimeUs _stop_us;
  platform::Random& _random;
};

}  // namespace spotcheck::faults
