// Property `creation-liveness` (issue 11: liveness that means something): once faults have stopped
// and the world has had time to settle, a GetOrCreate that no other call on its ID competes with
// gets an answer of the object — existing, created, or the factory's own rejected / failed — not a
// typed error. `liveness` accepts any typed error before the deadline; this property does not:
// DeadlineExceeded or Unavailable for an uncontended GetOrCreate means the protocol left the ID
// unusable, e.g. a Creating row its own earlier request orphaned (§7: an abandoned creation record
// is cancelled) or a reservation nobody drives.
//
// Events (docs/events.md): faults.stopped; creation.requested / creation.finished (a Manager
// creation call, on its node and task); close.requested / close.finished (a Destroy / Close of an
// ID competes with creations of it); kill / exit (a dead host run's calls never finish and are
// forgotten). A call is judged when it is a GetOrCreate that began at least
// CreationLivenessOptions::settle_us after faults.stopped and no other creation or close call of
// the same ID was open at any moment of it. settle_us = 0 judges nothing (scenarios without the
// Manager, or whose timings are not known).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class CreationLivenessChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "creation-liveness";

  explicit CreationLivenessChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  using Task = std::pair<std::int32_t, std::uint64_t>;  // (node, task): where a Manager call runs
  struct Call {
    std::string id;
    std::string what;  // "get_or_create", "create" or "close"
    std::string op_id;
    std::uint64_t start_event = 0;
    TimeUs start_us = 0;
    bool contended = false;  // another call of the same ID was open at some moment of this one
  };

  void open(const sim::TraceEvent& event, std::string id, std::string what, std::string op_id);
  std::optional<std::string> close(const sim::TraceEvent& event, std::string_view outcome);
  void forget_node(std::int32_t node);
  bool judged(const Call& call) const;

  TimeUs _settle_us = 0;
  std::optional<TimeUs> _faults_stopped_us;
  std::map<Task, Call> _open;
};

}  // namespace spotcheck::properties
