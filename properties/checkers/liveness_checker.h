// Property `liveness` (design "Properties"): after faults stop, every request that started ends
// (success or typed error) before its deadline.
//
// Events (impl/platform/event_kinds.h): the world's faults.stopped opens the liveness phase; a
// workload's request.start {owner, request, deadline_us, [now_us]} and request.end {owner,
// request, outcome, [late], [now_us]}. deadline_us is the node's local clock. A request started
// after faults.stopped (or, with LivenessOptions::judge_requests_open_at_stop, any request open
// then) must end on the node that started it, with a non-empty outcome, not late: end.late = 0,
// end.now_us <= deadline_us, and not after its deadline converted to virtual time
// (start time + local time left x (1 + drift bound) + slack). A request that never ends is
// reported at the first event past its deadline, or at the end of the run. A request whose host
// run died (kill, exit) is forgotten: the client went away with it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class LivenessChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "liveness";
  // Reads a node's local clock now; nullopt when unknown.
  using LocalClock = std::function<std::optional<TimeUs>(std::int32_t node)>;

  explicit LivenessChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  void on_attach(sim::World& world) override;
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;
  std::optional<std::string> finish(const RunEnd& end) override;

  void set_local_clock(LocalClock clock) { _local_clock = std::move(clock); }
  std::size_t open_requests() const { return _open.size(); }

 private:
  static constexpr TimeUs kNoDeadline = -1;

  struct OpenRequest {
    std::int32_t node = 0;
    std::string owner;
    std::int64_t request = 0;
    std::uint64_t start_event = 0;
    TimeUs start_us = 0;           // virtual
    TimeUs local_deadline_us = 0;  // the node's clock
    TimeUs deadline_us = kNoDeadline;  // virtual, with tolerance; kNoDeadline when unknown
  };
  using Due = std::pair<TimeUs, std::string>;  // (virtual deadline, request key)

  std::optional<std::string> on_start(const sim::TraceEvent& event);
  std::optional<std::string> on_end(const sim::TraceEvent& event);
  void forget_node(std::int32_t node);
  bool judged(const OpenRequest& request) const;
  // `when` describes the moment; called only to report a violation.
  std::optional<std::string> overdue_before(TimeUs now_us, const std::function<std::string()>& when);
  std::string describe(const OpenRequest& request) const;

  LivenessOptions _options;
  LocalClock _local_clock;
  bool _faults_stopped = false;
  std::uint64_t _faults_stopped_event = 0;
  StringMap<OpenRequest> _open;
  StringSet _ended;
  std::unordered_map<std::int32_t, std::vector<std::string>> _keys_by_node;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> _due;
};

}  // namespace spotcheck::properties
