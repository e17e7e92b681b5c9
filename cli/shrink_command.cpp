// spotcheck shrink: from a failing seed of a Location scenario, a smaller scenario file that still
// fails with the same property, and the story of its violation (docs/replay.md).
//
// Exit status: 0 shrunk and written; 2 bad input or nothing to shrink (unknown scenario, not a
// Location scenario, a seed that passes or whose run broke); 3 the seed's plan cannot be written
// as a scenario file that still fails (or the shrunk run did not repeat: a determinism bug).
#include <iostream>

#include "cli/commands.h"
#include "cli/output_paths.h"
#include "cli/scenario_lookup.h"
#include "cli/number_text.h"
#include "replay/shrink/shrink_report.h"
#include "replay/shrink/shrinker.h"
#include "replay/story/story.h"
#include "reports/output_file.h"
#include "scenarios/files/scenario_file.h"

namespace spotcheck::cli {

namespace {

constexpr int kExitNotWritable = 3;

struct ShrinkFlags {
  std::string scenario = "default";
  std::string seed;
  bool swarm = false;
  std::uint32_t max_runs = replay::kDefaultShrinkRunsMax;
  std::string out;
};

const scenarios::authority::AuthorityScenario& find_location_scenario(const std::string& name) {
  const auto* location = dynamic_cast<const scenarios::authority::AuthorityScenario*>(&find_scenario(name));
  if (location == nullptr) {
    throw UsageError("shrink does not support scenario '" + name +
                     "' yet: only Location scenarios (default, authority-race, lease-pause, store-outage, churn, "
                     "or a scenario file with a Location base)");
  }
  return *location;
}

int shrink(const ShrinkFlags& flags) {
  if (flags.max_runs < 2) {
    throw UsageError("--max-runs must be at least 2 (two runs confirm the failure)");
  }
  const std::uint64_t seed = parse_seed("--seed", flags.seed);
  check_output_paths({{"--out", flags.out}}, {{"--scenario", scenario_file_path(flags.scenario)}});
  const auto& scenario = find_location_scenario(flags.scenario);
  const std::string out_path =
      flags.out.empty() ? scenario.name() + "-seed-" + std::to_string(seed) + "-shrunk.json" : flags.out;
  check_output_paths({{"--out", out_path}}, {{"--scenario", scenario_file_path(flags.scenario)}});

  std::cout << "shrinking " << scenario.name() << (flags.swarm ? " (swarm)" : "") << " seed " << seed
            << " (at most " << flags.max_runs << " runs)\n";
  replay::ShrinkOptions options;
  options.max_runs = flags.max_runs;
  replay::ShrinkResult result;
  try {
    result = replay::shrink(scenario.config(), seed, flags.swarm, options,
                            [](const replay::ShrinkProgress& p) { std::cout << replay::progress_line(p) << "\n"; });
  } catch (const replay::ShrinkRefused& e) {
    if (e.reason == replay::ShrinkRefusal::kNotRepresentable || e.reason == replay::ShrinkRefusal::kNondeterministic) {
      std::cerr << "spotcheck: " << e.what() << "\n";
      return kExitNotWritable;
    }
    throw UsageError(e.what());
  }

  scenarios::files::ScenarioFileText text;
  try {
    text = scenarios::files::write_scenario(result.shrunk);
  } catch (const scenarios::files::ScenarioFileError& e) {
    std::cerr << "spotcheck: " << e.what() << "\n";
    return kExitNotWritable;
  }
  reports::write_output_file(out_path, "shrunk scenario", text.json);
  for (const auto& setting : text.not_written) {
    std::cout << "note: a scenario file cannot hold " << setting << "; the file runs without it\n";
  }

  replay::print_shrink_summary(result, out_path, std::cout);
  std::cout << "\n";
  const auto& violation = *result.shrunk_outcome.violation;
  replay::print_story(replay::tell_story(result.shrunk_outcome.event_lines, violation), violation, std::cout);
  std::cout << "\nreplay: " << replay::shrunk_replay_command(out_path, seed) << "\n";
  return kExitPassed;
}

}  // namespace

void add_shrink_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ShrinkFlags>();
  auto* cmd = app.add_subcommand("shrink", "Shrink a failing seed to a smaller scenario file and tell its story");
  cmd->add_option("--scenario", flags->scenario, "Location scenario name or scenario file")->capture_default_str();
  cmd->add_option("--seed", flags->seed, "The failing seed (decimal, 0 to 2^64-1)")->required();
  cmd->add_flag("--swarm", flags->swarm, "The seed was run in swarm mode (its drawn plan is the starting plan)");
  cmd->add_option("--max-runs", flags->max_runs, "Runs of the seed the search may use")->capture_default_str();
  cmd->add_option("--out", flags->out,
                  "Where to write the shrunk scenario file (default <scenario>-seed-<N>-shrunk.json)")
      ->check(output_file_name());
  cmd->callback([flags, &exit_code] { exit_code = shrink(*flags); });
}

}  // namespace spotcheck::cli
