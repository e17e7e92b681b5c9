// Shrinking from the decision log (issue 12): the recorded choices of a failing run are edited —
// a fault that fires made not to fire, a delay made its longest, a message kept, a scheduler pick
// made the first candidate — and the run replayed from the edited log (leniently: sim/choice/
// replaying_choice_source.h), keeping an edit only when the run still fails the same way
// (failure_verdict.h), its failure's story (replay/story) has fewer events — or as many and the run
// fewer events, or both as many and fewer loud decisions — and the run has no more events than the
// run the search started from.
//
// Hierarchical delta debugging over the log: first whole streams (every decision of "network",
// of each fault stream, of the scheduler), then the remaining decisions in halves, quarters, ...
// down to single decisions, until a pass at single decisions keeps nothing or the run budget is
// spent. A kept edit's run is recorded: its log (the decisions it really took) is the next
// standing log. Each kept edit lowers (story events, events, decisions not yet quiet) in that
// order, so the search ends; same input, same result.
//
// Only the streams of the world are edited — the network, the faults and the scheduler. A node's
// own stream (its OwnerIds, OperationIds and workload) and the clock are never edited: quieting an
// identity draw could make two host runs share an OwnerId and fail for a reason of the edit's own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "replay/shrink/failure_verdict.h"
#include "scenarios/registry/scenario.h"
#include "sim/choice/decision_log.h"

namespace spotcheck::replay {

// The seed run from a (possibly edited) log, leniently, with its decisions recorded and its trace
// kept (the story is measured).
using LogRun = std::function<scenarios::SeedOutcome(std::shared_ptr<const sim::DecisionLog>)>;

struct LogShrinkStep {
  std::string change;  // "quiet stream 'network' (212 decisions)", "quiet decisions 1024-1535 (37)"
  std::uint32_t runs_used = 0;
  std::string still;  // shrinker.h still_text() of the kept run
};

struct LogShrinkResult {
  scenarios::SeedOutcome outcome;  // the standing run; outcome.decision_log is its log
  std::uint32_t runs_used = 0;
  std::uint64_t events_used = 0;
  bool budget_spent = false;
  std::uint64_t quieted = 0;  // decisions of edited streams made quiet in the standing log
};

// The streams an edit may touch.
bool editable_stream(std::string_view name);
// The quiet value of a decision: a draw of all ones (a chance that never comes true, the top of a
// range), the first of a pick.
std::uint64_t quiet_value(const sim::Decision& decision);

// `start` must carry its recorded decision_log and fail with `verdict`. `max_runs` bounds the runs
// and `max_events` the events they simulate in all.
LogShrinkResult shrink_decision_log(const LogRun& run, scenarios::SeedOutcome start, const FailureVerdict& verdict,
                                    std::uint32_t max_runs, std::uint64_t max_events,
                                    const std::function<void(const LogShrinkStep&)>& on_step = {});

}  // namespace spotcheck::replay
