#include "replay/shrink/log_shrink.h"

#include <algorithm>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "impl/check/check.h"
#include "replay/shrink/shrinker.h"
#include "replay/story/story.h"

namespace spotcheck::replay {

namespace {

using scenarios::SeedOutcome;
using sim::Decision;
using sim::DecisionLog;

// Decisions of editable streams that are not quiet yet, in log order; `only_stream`: of that one.
std::vector<std::size_t> loud_decisions(const DecisionLog& log, std::optional<std::uint32_t> only_stream = {}) {
  std::vector<bool> editable;
  for (const std::string& name : log.stream_names()) {
    editable.push_back(editable_stream(name));
  }
  std::vector<std::size_t> loud;
  const std::vector<Decision>& decisions = log.decisions();
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    const Decision& d = decisions[i];
    if (editable[d.stream] && d.value != quiet_value(d) && (!only_stream || d.stream == *only_stream)) {
      loud.push_back(i);
    }
  }
  return loud;
}

std::shared_ptr<const DecisionLog> quieted(const DecisionLog& log, std::span<const std::size_t> indices) {
  auto edited = std::make_shared<DecisionLog>(log);
  for (const std::size_t i : indices) {
    edited->set_value(i, quiet_value(log.decisions()[i]));
  }
  return edited;
}

// What a kept edit must lower: the events of the failure's story (what a person reads), then the
// run's events, then the decisions still loud.
std::tuple<std::uint64_t, std::uint64_t, std::size_t> measure(const SeedOutcome& outcome) {
  SPOTCHECK_ASSERT_ABORT(outcome.decision_log != nullptr);
  SPOTCHECK_ASSERT_ABORT(outcome.event_lines.size() == outcome.events);
  const std::uint64_t story = tell_story(outcome.event_lines, failure_of(outcome)).relevant;
  return {story, outcome.events, loud_decisions(*outcome.decision_log).size()};
}

class LogSearch {
 public:
  LogSearch(const LogRun& run, SeedOutcome start, const FailureVerdict& verdict, std::uint32_t max_runs,
            std::uint64_t max_events, const std::function<void(const LogShrinkStep&)>& on_step)
      : _run(run),
        _current(std::move(start)),
        _current_measure(measure(_current)),
        _events_max(_current.events),
        _verdict(verdict),
        _max_runs(max_runs),
        _max_events(max_events),
        _on_step(on_step) {
    SPOTCHECK_ASSERT_ABORT(_current.decision_log != nullptr);
    SPOTCHECK_ASSERT_ABORT(_verdict.kept_by(_current));
  }

  // All editable streams at once, then each stream whole.
  void by_streams() {
    try_edit(loud_decisions(log()), "quiet every network, fault and scheduler decision");
    for (std::uint32_t stream = 0; stream < log().stream_names().size() && budget_left(); ++stream) {
      if (!editable_stream(log().stream_names()[stream])) {
        continue;
      }
      const std::string name = log().stream_names()[stream];
      try_edit(loud_decisions(log(), stream), "quiet stream '" + name + "'");
    }
  }

  // Halves, quarters, ... of the loud decisions; true at a fixed point (single decisions, none kept).
  bool by_chunks() {
    std::size_t parts = 2;
    while (budget_left()) {
      std::vector<std::size_t> loud = loud_decisions(log());
      if (loud.empty()) {
        return true;
      }
      parts = std::min(parts, loud.size());
      const std::size_t chunk = (loud.size() + parts - 1) / parts;
      bool kept = false;
      for (std::size_t begin = 0; begin < loud.size() && budget_left();) {
        const std::size_t end = std::min(loud.size(), begin + chunk);
        const std::span<const std::size_t> part(loud.data() + begin, end - begin);
        if (try_edit(part, chunk_change(part))) {
          kept = true;
          loud = loud_decisions(log());  // the kept chunk is quiet now: the next one starts at `begin`
        } else {
          begin = end;
        }
      }
      if (!budget_left()) {
        return false;
      }
      if (!kept && chunk == 1) {
        return true;
      }
      parts = kept ? parts : parts * 2;
    }
    return false;
  }

  bool budget_left() const { return _runs < _max_runs && _events < _max_events; }
  LogShrinkResult result() && {
    LogShrinkResult result;
    result.runs_used = _runs;
    result.events_used = _events;
    result.budget_spent = !budget_left();
    result.quieted = _quieted;
    result.outcome = std::move(_current);
    return result;
  }

 private:
  const DecisionLog& log() const { return *_current.decision_log; }

  std::string chunk_change(std::span<const std::size_t> part) const {
    return "quiet decisions " + std::to_string(part.front()) + "-" + std::to_string(part.back());
  }

  bool try_edit(std::span<const std::size_t> indices, const std::string& change) {
    if (indices.empty() || !budget_left()) {
      return false;
    }
    ++_runs;
    SeedOutcome outcome = _run(quieted(log(), indices));
    _events += outcome.events;
    if (!_verdict.kept_by(outcome) || outcome.decision_log == nullptr || outcome.events > _events_max) {
      return false;
    }
    const auto candidate_measure = measure(outcome);
    if (!(candidate_measure < _current_measure)) {
      return false;
    }
    _current_measure = candidate_measure;
    _quieted += indices.size();
    _current = std::move(outcome);
    if (_on_step) {
      const std::string count = std::to_string(indices.size()) + (indices.size() == 1 ? " decision" : " decisions");
      _on_step(LogShrinkStep{change + " (" + count + ")", _runs, still_text(_current)});
    }
    return true;
  }

  const LogRun& _run;
  SeedOutcome _current;
  std::tuple<std::uint64_t, std::uint64_t, std::size_t> _current_measure;
  std::uint64_t _events_max;  // never more events than the run the search started from
  const FailureVerdict& _verdict;
  std::uint32_t _max_runs;
  std::uint64_t _max_events;
  std::uint64_t _events = 0;
  const std::function<void(const LogShrinkStep&)>& _on_step;
  std::uint32_t _runs = 0;
  std::uint64_t _quieted = 0;
};

}  // namespace

bool editable_stream(std::string_view name) {
  return name == "scheduler" || name == "network" || name.starts_with("faults") || name.starts_with("store.faults") ||
         name.starts_with("relocation-store.faults");
}

std::uint64_t quiet_value(const Decision& decision) { return decision.count == 0 ? ~std::uint64_t{0} : 0; }

LogShrinkResult shrink_decision_log(const LogRun& run, SeedOutcome start, const FailureVerdict& verdict,
                                    std::uint32_t max_runs, std::uint64_t max_events,
                                    const std::function<void(const LogShrinkStep&)>& on_step) {
  LogSearch search(run, std::move(start), verdict, max_runs, max_events, on_step);
  search.by_streams();
  const bool fixed_point = search.by_chunks();
  LogShrinkResult result = std::move(search).result();
  result.budget_spent = !fixed_point;
  return result;
}

}  // namespace spotcheck::replay
