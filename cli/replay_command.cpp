// spotcheck replay: run one seed exactly as a campaign ran it, and tell its story.
#include <iostream>
#include <optional>

#include "replay/campaign/campaign_runner.h"
#include "cli/commands.h"
#include "cli/decision_log_file.h"
#include "cli/replay_trace_file.h"
#include "cli/output_paths.h"
#include "cli/scenario_lookup.h"
#include "cli/number_text.h"
#include "faults/out_of_contract.h"
#include "reports/output_file.h"

namespace spotcheck::cli {

namespace {

struct ReplayFlags {
  std::string scenario = "default";
  std::string seed;
  bool swarm = false;
  bool print_trace = false;
  bool check_determinism = false;
  std::string trace_path;
  std::string decision_log_out;  // record the run's decision log into this file
  std::string decision_log_in;   // replay the run from this decision log
  std::optional<std::string> out_of_contract;  // faults/out_of_contract.h, as `spotcheck run` had it
  std::string trace_file;  // positional: a trace file to run again (cli/replay_trace_file.h)
};

int replay(const ReplayFlags& flags) {
  if (!flags.trace_file.empty()) {
    if (!flags.seed.empty() || flags.swarm || flags.out_of_contract.has_value() || !flags.decision_log_in.empty() ||
        !flags.decision_log_out.empty() || flags.print_trace || !flags.trace_path.empty() || flags.check_determinism ||
        flags.scenario != ReplayFlags{}.scenario) {
      throw UsageError("a trace file names its own scenario, seed and flags: give it alone");
    }
    return replay_trace_file(flags.trace_file);
  }
  if (flags.seed.empty()) {
    throw UsageError("replay needs --seed (and --scenario), or a trace file");
  }
  const std::uint64_t seed = parse_seed("--seed", flags.seed);
  check_output_paths({{"--trace-out", flags.trace_path}, {"--decision-log-out", flags.decision_log_out}},
                     {{"--scenario", scenario_file_path(flags.scenario)}, {"--decision-log", flags.decision_log_in}});
  if (!flags.decision_log_out.empty() && !flags.decision_log_in.empty()) {
    throw UsageError("--decision-log-out and --decision-log cannot be used together");
  }
  const auto& scenario = find_scenario(flags.scenario);
  std::optional<reports::OutputFile> trace_file;
  if (!flags.trace_path.empty()) {
    try {
      trace_file.emplace(flags.trace_path, "trace");
    } catch (const reports::OutputError& e) {
      throw UsageError(e.what());
    }
  }
  scenarios::SeedRequest request;
  request.seed = seed;
  request.swarm = flags.swarm;
  request.out_of_contract = out_of_contract_flag(flags.out_of_contract, scenario);
  request.keep_trace = flags.print_trace || trace_file.has_value();
  request.record_decisions = !flags.decision_log_out.empty();
  if (!flags.decision_log_in.empty()) {
    request.replay_decisions = read_decision_log_file(flags.decision_log_in);
  }
  const auto outcome = scenario.run(request);
  if (request.record_decisions) {
    write_decision_log_file(flags.decision_log_out, *outcome.decision_log);
  }

  for (std::size_t i = 0; i < outcome.event_lines.size(); ++i) {
    if (flags.print_trace) {
      std::cout << outcome.event_lines[i] << "\n";
    }
    if (trace_file.has_value()) {
      trace_file->stream() << outcome.event_lines[i] << "\n";
    }
  }
  if (trace_file.has_value()) {
    trace_file->commit();
  }
  std::cout << "scenario " << scenario.name() << (flags.swarm ? " (swarm)" : "") << ", seed " << outcome.seed
            << ": " << outcome.events << " events, " << static_cast<double>(outcome.simulated_us) / 1e6
            << " s simulated, trace hash " << std::hex << outcome.trace_hash << std::dec << "\n";
  int code = kExitPassed;
  if (outcome.violation.has_value()) {
    const auto& v = *outcome.violation;
    std::cout << "VIOLATION " << v.property << " at " << static_cast<double>(v.time_us) / 1e6 << " s (event "
              << v.event_index << "): " << v.message << "\n";
    code = kExitViolations;
  } else if (outcome.failure.has_value()) {
    std::cout << "RUN FAILURE: " << *outcome.failure << "\n";
    code = kExitViolations;
  } else {
    std::cout << "passed\n";
  }
  if (!outcome.ok() && request.out_of_contract != 0) {
    const std::vector<std::string> needed = out_of_contract_needed(scenario, request);
    if (needed.empty()) {
      std::cout << "in contract: the seed fails with the out-of-contract faults off too\n";
    }
    for (const std::string& kind : needed) {
      std::cout << "out of contract: passes without " << kind << "; the assumption it breaks: "
                << faults::out_of_contract_assumption(faults::fault_kind_named(kind)) << "\n";
    }
  }
  if (flags.check_determinism) {
    if (auto mismatch = check_seed_determinism(scenario, request)) {
      std::cout << "NONDETERMINISM: runs first differ at event " << mismatch->divergence.event_index
                << "\n  first run:  " << mismatch->divergence.first
                << "\n  second run: " << mismatch->divergence.second << "\n";
      code = kExitViolations;
    } else {
      std::cout << "deterministic: two more runs gave the same trace\n";
    }
  }
  return code;
}

}  // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ReplayFlags>();
  auto* cmd = app.add_subcommand("replay", "Run one seed again, bit for bit, and show what happened");
  cmd->add_option("--scenario", flags->scenario, "Scenario name")->capture_default_str();
  cmd->add_option("trace-file", flags->trace_file, "A trace file (spotcheck run --results) to run again");
  cmd->add_option("--seed", flags->seed, "The seed to replay (decimal, 0 to 2^64-1)");
  cmd->add_flag("--swarm", flags->swarm, "The seed was run in swarm mode");
  cmd->add_flag("--trace", flags->print_trace, "Print every event of the run");
  cmd->add_option("--trace-out", flags->trace_path, "Write every event of the run to this file")
      ->check(output_file_name());
  cmd->add_flag("--check-determinism", flags->check_determinism, "Also run the seed twice more and compare");
  cmd->add_option("--decision-log-out", flags->decision_log_out, "Write the run's decision log (every choice it made) to this file")
      ->check(output_file_name());
  cmd->add_option("--decision-log", flags->decision_log_in,
                  "Replay the run from this decision log (written by --decision-log-out on this build)");
  cmd->add_option("--out-of-contract", flags->out_of_contract,
                  "The out-of-contract fault kinds the campaign had on (all, or a comma list)");
  cmd->callback([flags, &exit_code] { exit_code = replay(*flags); });
}

}  // namespace spotcheck::cli
