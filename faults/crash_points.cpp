#include "faults/crash_points.h"

#include <algorithm>
#include <array>

#include "impl/check/check.h"
#include "impl/platform/event_kinds.h"

namespace spotcheck::faults {

namespace {

constexpr std::array<CrashPoint, 3> kCrashPoints{{
    {kinds::kInstancePayloadStored, "after-payload-stored", platform::Mark::kCrashAfterPayloadStored},
    {kinds::kInstanceReserved, "after-creating", platform::Mark::kCrashAfterCreating},
    {kinds::kInstanceReady, "after-ready", platform::Mark::kCrashAfterReady},
}};

constexpr platform::TimeUs kDownMinUs = platform::millis(1);

}  // namespace

std::span<const CrashPoint> crash_points() { return kCrashPoints; }

CrashPoints::CrashPoints(sim::World& world, std::vector<sim::ProcessId> nodes, double probability,
                         platform::TimeUs down_max_us, platform::TimeUs stop_us)
    : _world(world),
      _nodes(std::move(nodes)),
      _probability(probability),
      _down_max_us(std::max(down_max_us, kDownMinUs)),
      _stop_us(stop_us),
      _random(world.stream("faults.crash-point")) {
  SPOTCHECK_ASSERT_ABORT(0.0 < _probability && _probability <= 1.0);
  SPOTCHECK_ASSERT_ABORT(!_nodes.empty());
}

const CrashPoint* CrashPoints::point_of(std::string_view kind) const {
  for (const CrashPoint& point : kCrashPoints) {
    if (point.after_kind == kind) {
      return &point;
    }
  }
  return nullptr;
}

bool CrashPoints::ours(std::int32_t node) const {
  return node >= 0 && std::find(_nodes.begin(), _nodes.end(), static_cast<sim::ProcessId>(node)) != _nodes.end();
}

std::optional<std::string> CrashPoints::on_event(const sim::TraceEvent& event) {
  if (event.time_us >= _stop_us || event.task == 0) {
    return std::nullopt;  // healed, or not emitted by a task of a node
  }
  const CrashPoint* point = point_of(event.kind);
  if (point == nullptr || !ours(event.node)) {
    return std::nullopt;
  }
  if (!_random.chance(_probability)) {
    return std::nullopt;
  }
  const auto node = static_cast<sim::ProcessId>(event.node);
  const platform::TimeUs down_us = _random.between(kDownMinUs, _down_max_us);
  _world.count_mark(point->mark);
  _world.crash(node, point->name);
  // The restart may fall after faults stop: a crashed node always comes back.
  _world.at(event.time_us + down_us, [this, node] {
    if (_world.process_state(node) == sim::ProcessState::dead) {
      _world.start(node);
    }
  });
  return std::nullopt;
}

}  // namespace spotcheck::faults
