// One online property: a sim::TraceObserver with a stable name that judges every event as it
// arrives (per object, linear in the trace) and, at the end of a run, what only the end can show.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/trace/observer.h"

namespace spotcheck::sim {
class World;
}

namespace spotcheck::properties {

using platform::TimeUs;

// Where a run stopped, for the checks that need the run to be over.
struct RunEnd {
  TimeUs time_us = 0;           // virtual time when the run stopped
  std::uint64_t next_index = 0;  // index the next event would have had (the trace length)
};

class PropertyChecker : public sim::TraceObserver {
 public:
  // Stable name, e.g. "single-owner" (campaign reports, `spotcheck list`).
  virtual std::string_view name() const = 0;
  // Called when the suite subscribes to `world`: a checker may keep simulator facilities that
  // are not protocol internals (e.g. a node's local clock). Default: nothing.
  virtual void on_attach(sim::World& world) { static_cast<void>(world); }
  // Judges what only the end of a run can show (e.g. a request that never ended). Returns the
  // violation text, or nullopt. Called at most once, after the last on_event.
  virtual std::optional<std::string> finish(const RunEnd& end) {
    static_cast<void>(end);
    return std::nullopt;
  }

  // The events cited since the last call, for the violation's subjects (PropertySuite).
  std::vector<std::uint64_t> take_cited() { return std::exchange(_cited, {}); }
  void forget_cited() { _cited.clear(); }

 protected:
  // "#<index>" for a violation message; the event is remembered as one the violation cites.
  std::string cite(std::uint64_t index) const {
    _cited.push_back(index);
    return "#" + std::to_string(index);
  }

 private:
  mutable std::vector<std::uint64_t> _cited;
};

}  // namespace spotcheck::properties
