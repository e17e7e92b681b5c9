// spotcheck shrink: a failing seed of any scenario made small (replay/shrink/seed_shrink.h): a
// smaller scenario file (every family a file can hold), then its decision log edited.
// Writes the shrunk scenario file and the shrunk run's trace file into the results
// folder, prints the story of the failure (docs/replay.md) and with --html writes the shrunk
// failure's page: the story with its sequence diagram and record versions (docs/campaigns.md).
//
// Exit status: 0 shrunk and written; 2 bad input or nothing to shrink (unknown scenario, a seed
// that passes); 3 the seed's plan cannot be written as a scenario file that still fails, or the
// shrunk run did not repeat (a determinism bug); 3 also for a file that cannot be written.
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/build_id.h"
#include "cli/commands.h"
#include "cli/number_text.h"
#include "cli/output_paths.h"
#include "cli/results_folder.h"
#include "cli/scenario_lookup.h"
#include "replay/diagram/failure_story.h"
#include "replay/shrink/failure_verdict.h"
#include "replay/shrink/seed_shrink.h"
#include "replay/shrink/shrink_report.h"
#include "replay/story/story.h"
#include "replay/trace_file/trace_file.h"
#include "reports/output_file.h"
#include "reports/shrunk_report.h"
#include "scenarios/files/any_scenario_file.h"

namespace spotcheck::cli {

namespace {

constexpr int kExitNotWritable = 3;

struct ShrinkFlags {
  std::string scenario = "default";
  std::string seed;
  bool swarm = false;
  std::uint32_t max_runs = replay::kDefaultSeedShrinkRunsMax;
  std::string max_events = std::to_string(replay::kDefaultShrinkEventsMax);
  std::string out;
  std::string html_path;
  std::string results_dir = kDefaultResultsDir;
};

struct Written {
  std::string scenario_file;  // not for the synthetic world (no file holds it)
  std::string trace_file;
};

// The shrunk scenario file and the trace file of the shrunk run.
Written write_results(const ShrinkFlags& flags, const replay::SeedShrinkResult& result, const std::string& base_name) {
  make_results_dir(flags.results_dir);
  Written written;
  std::string scenario_name = flags.scenario;
  std::optional<std::string> scenario_text = scenario_file_text(flags.scenario);
  bool swarm = flags.swarm;
  if (result.parameters.has_value()) {
    const scenarios::files::ScenarioFileText text = scenarios::files::write_any_scenario(result.parameters->shrunk);
    written.scenario_file = flags.out.empty() ? flags.results_dir + "/" + base_name + ".json" : flags.out;
    reports::write_output_file(written.scenario_file, "shrunk scenario", text.json);
    for (const auto& setting : text.not_written) {
      std::cout << "note: a scenario file cannot hold " << setting << "; the file runs without it\n";
    }
    scenario_name = std::visit([](const auto& c) { return c.name; }, result.parameters->shrunk);
    scenario_text = text.json;
    swarm = false;
  }
  replay::TraceFile trace = replay::trace_file_of(result.shrunk_outcome, this_build(), scenario_name, scenario_text,
                                                  swarm, "");
  trace.replay_from_decision_log = true;
  written.trace_file = flags.results_dir + "/" + base_name + ".trace.jsonl";
  replay::write_trace_file(written.trace_file, trace);
  return written;
}

// The shrunk failure's HTML page, written whole or not at all (reports::OutputFile, opened before
// the search so a path that cannot be written fails at once).
std::optional<reports::OutputFile> open_html(const std::string& path) {
  try {
    if (path.empty()) {
      return std::nullopt;
    }
    return std::optional<reports::OutputFile>(std::in_place, path, "HTML report");
  } catch (const reports::OutputError& e) {
    throw UsageError(e.what());
  }
}

void write_html(const ShrinkFlags& flags, const replay::SeedShrinkResult& result, const scenarios::Violation& failure,
                const std::string& trace_file, reports::OutputFile& html) {
  reports::ShrunkFailurePage page;
  page.scenario = flags.scenario;
  page.seed = result.seed;
  page.property = failure.property;
  std::ostringstream summary;
  replay::print_seed_shrink_summary(result, summary);
  page.summary = summary.str();
  page.replay_command = "spotcheck replay " + trace_file;
  page.story = replay::failure_story(result.seed, result.shrunk_outcome.event_lines, failure);
  reports::write_shrunk_report(page, html.stream());
  html.commit();
}

int shrink(const ShrinkFlags& flags) {
  if (flags.max_runs < 4) {
    throw UsageError("--max-runs must be at least 4 (two runs confirm the failure, two start the log stage)");
  }
  const std::uint64_t seed = parse_seed("--seed", flags.seed);
  const std::uint64_t max_events = parse_decimal("--max-events", flags.max_events, 1, std::uint64_t{1} << 40);
  const std::string scenario_file = scenario_file_path(flags.scenario);
  check_output_paths({{"--out", flags.out}, {"--results", flags.results_dir}, {"--html", flags.html_path}},
                     {{"--scenario", scenario_file}});
  const scenarios::Scenario& scenario = find_scenario(flags.scenario);
  const std::string base_name =
      scenario_slug(flags.scenario) + "-seed-" + std::to_string(seed) + (flags.swarm ? "-swarm" : "") + "-shrunk";

  std::optional<reports::OutputFile> html = open_html(flags.html_path);
  std::cout << "shrinking " << scenario.name() << (flags.swarm ? " (swarm)" : "") << " seed " << seed
            << " (at most " << flags.max_runs << " runs)\n";
  replay::SeedShrinkResult result;
  try {
    result = replay::shrink_seed(scenario, seed, flags.swarm, flags.max_runs, max_events,
                                 [](const replay::ShrinkProgress& p) { std::cout << replay::progress_line(p) << "\n"; });
  } catch (const replay::ShrinkRefused& e) {
    if (e.reason == replay::ShrinkRefusal::kNotRepresentable || e.reason == replay::ShrinkRefusal::kNondeterministic) {
      std::cerr << "spotcheck: " << e.what() << "\n";
      return kExitNotWritable;
    }
    throw UsageError(e.what());
  }

  Written written;
  try {
    written = write_results(flags, result, base_name);
  } catch (const scenarios::files::ScenarioFileError& e) {
    std::cerr << "spotcheck: " << e.what() << "\n";
    return kExitNotWritable;
  }
  replay::print_seed_shrink_summary(result, std::cout);
  if (!written.scenario_file.empty()) {
    std::cout << "wrote " << written.scenario_file << " (the shrunk configuration; its seed " << seed
              << " runs before the decision-log stage)\n";
  }
  std::cout << "wrote " << written.trace_file << " (the shrunk run, from its decision log)\n\n";
  const scenarios::Violation failure = replay::failure_of(result.shrunk_outcome);
  replay::print_story(replay::tell_story(result.shrunk_outcome.event_lines, failure), failure, std::cout);
  std::cout << "\nreplay: spotcheck replay " << written.trace_file << "\n";
  if (html.has_value()) {
    write_html(flags, result, failure, written.trace_file, *html);
    std::cout << "wrote " << flags.html_path << " (the shrunk failure's story and picture)\n";
  }
  return kExitPassed;
}

}  // namespace

void add_shrink_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ShrinkFlags>();
  auto* cmd = app.add_subcommand("shrink", "Shrink a failing seed to a short run and tell its story");
  cmd->add_option("--scenario", flags->scenario, "Scenario name or scenario file")->capture_default_str();
  cmd->add_option("--seed", flags->seed, "The failing seed (decimal, 0 to 2^64-1)")->required();
  cmd->add_flag("--swarm", flags->swarm, "The seed was run in swarm mode");
  cmd->add_option("--max-runs", flags->max_runs, "Runs of the seed the search may use")->capture_default_str();
  cmd->add_option("--max-events", flags->max_events, "Events the search's runs may simulate in all")
      ->capture_default_str();
  cmd->add_option("--results", flags->results_dir, "Folder for the shrunk scenario file and trace file")
      ->capture_default_str()
      ->check(output_file_name());
  cmd->add_option("--out", flags->out,
                  "Where to write the shrunk scenario file (default "
                  "<results>/<scenario>-seed-<N>-shrunk.json)")
      ->check(output_file_name());
  cmd->add_option("--html", flags->html_path,
                  "Write the shrunk failure's story with its sequence diagram and record versions to this HTML file")
      ->check(output_file_name());
  cmd->callback([flags, &exit_code] { exit_code = shrink(*flags); });
}

}  // namespace spotcheck::cli
