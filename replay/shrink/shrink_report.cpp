#include "replay/shrink/shrink_report.h"

#include "replay/shrink/failure_verdict.h"
#include "reports/shell_quote.h"
#include "sim/time/time_text.h"

namespace spotcheck::replay {

std::string describe_config(const scenarios::authority::AuthorityScenarioConfig& config) {
  return "nodes " + std::to_string(config.node_count) + ", objects " + std::to_string(config.workload.object_count) +
         ", safety phase " + sim::seconds_short(config.faults_stop_us) + ", liveness " +
         sim::seconds_short(config.liveness_window_us) + ", traffic " + sim::seconds_short(config.workload.traffic_stop_us) +
         ", faults: " + config.plan(config.faults_stop_us).describe();
}

std::string describe_config(const scenarios::creation::CreationScenarioConfig& config) {
  const auto& w = config.workload;
  return "nodes " + std::to_string(config.node_count) + ", actor IDs " + std::to_string(w.actor_ids) + ", spot IDs " +
         std::to_string(w.spot_ids) + ", clients per node " + std::to_string(w.clients_per_node) + ", safety phase " +
         sim::seconds_short(config.faults_stop_us) + ", liveness " + sim::seconds_short(config.liveness_window_us) +
         ", traffic " + sim::seconds_short(w.traffic_stop_us) + ", node-link loss " +
         sim::probability_text(config.node_link_loss) + ", faults: " + config.plan(config.faults_stop_us).describe();
}

std::string describe_config(const scenarios::instance::InstanceScenarioConfig& config) {
  const auto& w = config.workload;
  return "client nodes " + std::to_string(config.client_nodes) + ", server nodes " +
         std::to_string(config.server_nodes) + ", spot IDs " + std::to_string(w.spot_ids) + ", clients per node " +
         std::to_string(w.clients_per_node) + ", safety phase " + sim::seconds_short(config.faults_stop_us) +
         ", liveness " + sim::seconds_short(config.liveness_window_us) + ", traffic " +
         sim::seconds_short(w.traffic_stop_us) + ", faults: " + config.plan(config.faults_stop_us).describe();
}

std::string describe_config(const scenarios::files::AnyScenarioConfig& config) {
  return std::visit([](const auto& c) { return describe_config(c); }, config);
}

std::string progress_line(const ShrinkProgress& progress) {
  return "  kept: " + progress.change + " (run " + std::to_string(progress.runs_used) + ", still " + progress.still +
         ")";
}

std::string shrunk_replay_command(const std::string& file, std::uint64_t seed) {
  return "spotcheck replay --scenario " + reports::shell_quote(file) + " --seed " + std::to_string(seed);
}

void print_shrink_summary(const ShrinkResult& result, const std::string& file, std::ostream& out) {
  out << "before: " << describe_config(result.original) << (result.swarm ? " (drawn by swarm mode)" : "") << "\n";
  out << "        " << still_text(result.original_outcome) << "\n";
  out << "after:  " << describe_config(result.shrunk) << "\n";
  out << "        " << still_text(result.shrunk_outcome) << "\n";
  out << result.steps.size() << " step(s) kept in " << result.runs_used << " run(s)"
      << (result.budget_spent ? " (run budget spent before a fixed point; --max-runs for more)" : " (fixed point)")
      << "\n";
  if (!file.empty()) {
    out << "wrote " << file << "\n";
  }
}

void print_seed_shrink_summary(const SeedShrinkResult& result, std::ostream& out) {
  if (result.parameters.has_value()) {
    out << "before:           " << describe_config(result.parameters->original)
        << (result.swarm ? " (drawn by swarm mode)" : "") << "\n";
    out << "                  " << still_text(result.original_outcome) << "\n";
    out << "parameters:       " << describe_config(result.parameters->shrunk) << "\n";
    out << "                  " << still_text(result.parameters->shrunk_outcome) << "\n";
  } else {
    out << "before:           " << still_text(result.original_outcome) << "\n";
  }
  out << "decision log:     " << still_text(result.shrunk_outcome) << "\n";
  out << result.steps.size() << " step(s) kept in " << result.runs_used << " run(s) of " << result.events_used
      << " events" << (result.budget_spent ? " (budget spent before a fixed point; --max-runs, --max-events for more)" : " (fixed point)")
      << "\n";
  const scenarios::Violation failure = failure_of(result.shrunk_outcome);
  out << (result.shrunk_outcome.violation ? "violation: " : "run failure: ") << failure.message << "\n";
}

}  // namespace spotcheck::replay
