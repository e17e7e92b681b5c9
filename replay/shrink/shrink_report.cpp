#include "replay/shrink/shrink_report.h"

#include "reports/shell_quote.h"
#include "sim/time/time_text.h"

namespace spotcheck::replay {

namespace {

std::string violation_text(const scenarios::Violation& v) {
  return v.property + " at " + sim::seconds_short(v.time_us) + " (event #" + std::to_string(v.event_index) + ")";
}

}  // namespace

std::string describe_config(const scenarios::authority::AuthorityScenarioConfig& config) {
  return "nodes " + std::to_string(config.node_count) + ", objects " + std::to_string(config.workload.object_count) +
         ", safety phase " + sim::seconds_short(config.faults_stop_us) + ", liveness " +
         sim::seconds_short(config.liveness_window_us) + ", traffic " + sim::seconds_short(config.workload.traffic_stop_us) +
         ", faults: " + config.plan(config.faults_stop_us).describe();
}

std::string progress_line(const ShrinkProgress& progress) {
  return "  kept: " + progress.change + " (run " + std::to_string(progress.runs_used) + ", still " +
         violation_text(progress.violation) + ")";
}

std::string shrunk_replay_command(const std::string& file, std::uint64_t seed) {
  return "spotcheck replay --scenario " + reports::shell_quote(file) + " --seed " + std::to_string(seed);
}

void print_shrink_summary(const ShrinkResult& result, const std::string& file, std::ostream& out) {
  out << "before: " << describe_config(result.original) << (result.swarm ? " (drawn by swarm mode)" : "") << "\n";
  out << "        " << result.original_outcome.events << " events, "
      << violation_text(*result.original_outcome.violation) << "\n";
  out << "after:  " << describe_config(result.shrunk) << "\n";
  out << "        " << result.shrunk_outcome.events << " events, " << violation_text(*result.shrunk_outcome.violation)
      << "\n";
  out << result.steps.size() << " step(s) kept in " << result.runs_used << " run(s)"
      << (result.budget_spent ? " (run budget spent before a fixed point; --max-runs for more)" : " (fixed point)")
      << "\n";
  out << "violation: " << result.shrunk_outcome.violation->message << "\n";
  if (!file.empty()) {
    out << "wrote " << file << "\n";
  }
}

}  // namespace spotcheck::replay
