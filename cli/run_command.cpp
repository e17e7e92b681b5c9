// spotcheck run: a fault campaign over many seeds.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "replay/campaign/campaign_runner.h"
#include "cli/commands.h"
#include "cli/output_paths.h"
#include "cli/scenario_lookup.h"
#include "cli/number_text.h"
#include "replay/diagram/failure_story.h"
#include "replay/story/story.h"
#include "faults/out_of_contract.h"
#include "cli/build_id.h"
#include "cli/results_folder.h"
#include "impl/json_guard/json_guard.h"
#include "replay/trace_file/trace_file.h"
#include "reports/campaign_json.h"
#include "reports/html_report.h"
#include "reports/junit_xml.h"
#include "reports/output_file.h"
#include "reports/summary_text.h"
#include "scenarios/common/stop_signals.h"

namespace spotcheck::cli {

namespace {

struct RunFlags {
  std::string scenario = "default";
  std::string seeds = "100";
  std::string first_seed = "1";
  unsigned jobs = 0;  // 0: one per core
  bool swarm = false;
  bool check_determinism = false;
  double determinism_sample = kDeterminismSampleDefault;
  bool require_marks = false;
  bool quiet = false;
  std::string junit_path;
  std::string html_path;
  std::string summary_json_path;
  std::string shard;  // "K/N"; empty: the whole campaign
  std::string results_dir = kDefaultResultsDir;  // trace files of failing seeds
  std::optional<std::string> out_of_contract;  // faults/out_of_contract.h: "all" or a comma list
};

// Stories of the first few violating seeds for the HTML report: each seed runs once more with its
// trace kept (bit for bit the campaign's run), replay/story picks the events that tell it and
// replay/diagram draws its picture (the sequence diagram and the versions of its records).
constexpr std::size_t kHtmlStoriesMax = 5;

std::vector<reports::FailureStory> tell_failure_stories(const scenarios::Scenario& scenario,
                                                        const reports::CampaignResult& result,
                                                        std::uint32_t out_of_contract) {
  std::vector<reports::FailureStory> stories;
  for (const scenarios::SeedOutcome& failure : result.failures) {
    if (stories.size() == kHtmlStoriesMax) {
      break;
    }
    if (!failure.violation.has_value()) {
      continue;
    }
    scenarios::SeedRequest request{failure.seed, result.swarm, true};
    request.out_of_contract = out_of_contract;
    const scenarios::SeedOutcome traced = scenario.run(request);
    reports::FailureStory story{failure.seed, {}};
    if (!traced.violation.has_value() || traced.trace_hash != failure.trace_hash) {
      story.lines.push_back("the traced replay of this seed did not repeat the campaign's run (a determinism bug)");
    } else {
      story = replay::failure_story(failure.seed, traced.event_lines, *traced.violation);
    }
    stories.push_back(std::move(story));
  }
  return stories;
}

void print_progress(const CampaignProgress& p, bool tty) {
  const double rate = p.wall_seconds > 0 ? static_cast<double>(p.seeds_done) * 60.0 / p.wall_seconds : 0.0;
  std::fprintf(stderr, "%sseeds %llu/%llu  failing %llu  events %llu  %.0f seeds/min  %.1fs%s",
               tty ? "\r" : "", static_cast<unsigned long long>(p.seeds_done),
               static_cast<unsigned long long>(p.seeds_total), static_cast<unsigned long long>(p.failures),
               static_cast<unsigned long long>(p.events), rate, p.wall_seconds, tty ? "   " : "\n");
  if (tty && p.seeds_done == p.seeds_total) {
    std::fputc('\n', stderr);
  }
}

// The report files, opened before the first seed runs so a path that cannot be written fails at
// once; nothing reaches the final paths until the reports are complete (an earlier report stays
// whole).
struct ReportFiles {
  explicit ReportFiles(const RunFlags& flags) {
    try {
      if (!flags.junit_path.empty()) {
        junit.emplace(flags.junit_path, "JUnit report");
      }
      if (!flags.html_path.empty()) {
        html.emplace(flags.html_path, "HTML report");
      }
      if (!flags.summary_json_path.empty()) {
        summary_json.emplace(flags.summary_json_path, "campaign summary");
      }
    } catch (const reports::OutputError& e) {
      throw UsageError(e.what());
    }
  }

  std::optional<reports::OutputFile> junit;
  std::optional<reports::OutputFile> html;
  std::optional<reports::OutputFile> summary_json;
};

// Progress on stderr: on a terminal one line rewritten in place, otherwise a line every few
// seconds.
std::function<void(const CampaignProgress&)> progress_printer() {
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto last_printed = std::make_shared<double>(-10.0);
  return [tty, last_printed](const CampaignProgress& p) {
    if (tty || p.seeds_done == p.seeds_total || p.wall_seconds - *last_printed >= 5.0) {
      *last_printed = p.wall_seconds;
      print_progress(p, tty);
    }
  };
}

void write_reports(const scenarios::Scenario& scenario, const CampaignOptions& options,
                   const reports::CampaignResult& result, std::optional<reports::JUnitWriter>& junit,
                   ReportFiles& files) {
  reports::write_summary_text(result, std::cout);
  if (files.summary_json.has_value()) {
    files.summary_json->stream() << reports::campaign_to_json(result);
    files.summary_json->commit();
  }
  if (junit.has_value()) {
    for (auto& [name, value] : reports::junit_properties(result, this_build().commit, this_build().binary_sha256)) {
      junit->set_property(std::move(name), std::move(value));
    }
    junit->write(result, files.junit->stream());
    files.junit->commit();
  }
  if (files.html.has_value()) {
    // After an interrupt the stories are skipped: the user asked to stop.
    const auto stories = result.interrupted_by != 0 ? std::vector<reports::FailureStory>{}
                                                    : tell_failure_stories(scenario, result, options.out_of_contract);
    reports::write_html_report(result, stories, files.html->stream());
    files.html->commit();
  }
}

// The trace files (replay/trace_file/trace_file.h) of the first kTraceFilesMax seeds that did not
// pass, written into the results folder as they finish (a crash of the tool later keeps them): each
// seed runs once more with its trace and decision log kept, bit for bit the campaign's run.
class FailureTraces {
 public:
  FailureTraces(const scenarios::Scenario& scenario, const RunFlags& flags, const CampaignOptions& options)
      : _scenario(scenario), _flags(flags), _options(options) {}

  // The story of the seed's violation when its trace was kept (for the JUnit report), else "".
  std::string on_seed(const scenarios::SeedOutcome& outcome) {
    if (outcome.ok() || _written.size() >= reports::kTraceFilesMax || _folder_failed) {
      return {};
    }
    scenarios::SeedRequest request{outcome.seed, _options.swarm, true};
    request.record_decisions = true;
    request.out_of_contract = _options.out_of_contract;
    const scenarios::SeedOutcome traced = _scenario.run(request);
    const std::string path = _flags.results_dir + "/" + file_name(outcome.seed);
    try {
      make_results_dir(_flags.results_dir);
      replay::write_trace_file(path, replay::trace_file_of(traced, this_build(), _flags.scenario,
                                                           scenario_file_text(_flags.scenario),
                                                           _options.swarm, faults::out_of_contract_text(_options.out_of_contract)));
      _written[outcome.seed] = path;
    } catch (const std::exception& e) {
      _folder_failed = true;  // once: the summary still carries every replay command
      std::cerr << "spotcheck: no trace files: " << e.what() << "\n";
    }
    if (!traced.violation.has_value() || traced.trace_hash != outcome.trace_hash) {
      return {};
    }
    std::ostringstream story;
    replay::print_story(replay::tell_story(traced.event_lines, *traced.violation), *traced.violation, story);
    return story.str();
  }
  std::map<std::uint64_t, std::string> written() const { return _written; }

 private:
  std::string file_name(std::uint64_t seed) const {
    return scenario_slug(_flags.scenario) + "-seed-" + std::to_string(seed) + (_options.swarm ? "-swarm" : "") + ".trace.jsonl";
  }

  const scenarios::Scenario& _scenario;
  const RunFlags& _flags;
  const CampaignOptions& _options;
  std::map<std::uint64_t, std::string> _written;
  bool _folder_failed = false;
};

// --shard K/N: 1 <= K <= N <= kShardsMax, and the shard runs at least one seed.
constexpr std::uint32_t kShardsMax = 100'000;

std::optional<reports::Shard> parse_shard(const std::string& text, std::uint64_t first_seed, std::uint64_t seeds) {
  if (text.empty()) {
    return std::nullopt;
  }
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) {
    throw UsageError("--shard must be K/N, e.g. 3/8 (got '" + json_guard::one_line(text, 40) + "')");
  }
  const auto count = static_cast<std::uint32_t>(parse_decimal("--shard's N", text.substr(slash + 1), 1, kShardsMax));
  const auto index = static_cast<std::uint32_t>(parse_decimal("--shard's K", text.substr(0, slash), 1, count));
  const reports::Shard shard{index, count, first_seed, seeds};
  if (shard.own_seeds() == 0) {
    throw UsageError("--shard " + text + " runs no seed of the " + std::to_string(seeds) + " asked for");
  }
  return shard;
}

int run(const RunFlags& flags) {
  const std::uint64_t first_seed = parse_seed("--seed", flags.first_seed);
  const std::uint64_t seeds = parse_decimal("--seeds", flags.seeds, 0, UINT64_MAX);
  check_seed_range(first_seed, seeds);
  const std::optional<reports::Shard> shard = parse_shard(flags.shard, first_seed, seeds);
  check_output_paths({{"--junit", flags.junit_path}, {"--html", flags.html_path}, {"--summary-json", flags.summary_json_path}},
                     {{"--scenario", scenario_file_path(flags.scenario)}});
  const auto& scenario = find_scenario(flags.scenario);
  const std::uint32_t out_of_contract = out_of_contract_flag(flags.out_of_contract, scenario);
  ReportFiles files(flags);
  std::optional<reports::JUnitWriter> junit;
  if (files.junit.has_value()) {
    junit.emplace(flags.scenario, flags.swarm, faults::out_of_contract_text(out_of_contract));
  }

  CampaignOptions options;
  options.scenario = &scenario;
  options.scenario_label = flags.scenario;
  options.first_seed = shard ? shard->own_first_seed() : first_seed;
  options.seeds = shard ? shard->own_seeds() : seeds;
  options.shard = shard;
  options.jobs = flags.jobs != 0 ? flags.jobs : std::max(1u, std::thread::hardware_concurrency());
  options.swarm = flags.swarm;
  options.check_determinism = flags.check_determinism;
  options.determinism_sample = flags.determinism_sample;
  options.out_of_contract = out_of_contract;
  FailureTraces traces(scenario, flags, options);
  options.on_seed = [&junit, &traces](const scenarios::SeedOutcome& outcome) {
    const std::string story = traces.on_seed(outcome);
    if (junit.has_value()) {
      junit->add(outcome, story);
    }
  };
  if (!flags.quiet) {
    options.on_progress = progress_printer();
  }
  // The first SIGINT/SIGTERM stops the campaign with its results; a second one ends the process.
  const scenarios::StopSignals signals(scenarios::StopSignals::kSecondKills);
  options.stop_requested = [] { return scenarios::StopSignals::requested(); };
  auto result = run_campaign(options);
  result.trace_files = traces.written();
  if (flags.require_marks) {
    result.required_marks = scenario.required_marks();
  }
  if (result.interrupted_by != 0 && !flags.quiet && isatty(STDERR_FILENO) != 0) {
    std::fputc('\n', stderr);
  }
  write_reports(scenario, options, result, junit, files);
  if (result.interrupted_by != 0) {
    return scenarios::exit_status_for_signal(result.interrupted_by);
  }
  return result.passed() ? kExitPassed : kExitViolations;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<RunFlags>();
  auto* cmd = app.add_subcommand("run", "Run a fault campaign: one scenario over many seeds");
  cmd->add_option("--scenario", flags->scenario, "Scenario name (see `spotcheck list`) or a scenario file (.json)")->capture_default_str();
  cmd->add_option("--seeds", flags->seeds, "How many seeds to run (decimal)")->capture_default_str();
  cmd->add_option("--seed", flags->first_seed, "First seed of the range (decimal, 0 to 2^64-1)")->capture_default_str();
  cmd->add_option("--jobs,-j", flags->jobs, "Seeds run at once (default: one per core)")->check(CLI::Range(1u, 1024u));
  cmd->add_flag("--swarm", flags->swarm, "Each seed draws which fault kinds are on and how hard");
  cmd->add_flag("--check-determinism", flags->check_determinism,
                "Run every seed twice and compare the traces event by event");
  cmd->add_option("--determinism-sample", flags->determinism_sample,
                  "Without --check-determinism: the share (0 to 1) of passing seeds run again to check their trace; "
                  "every failing seed is")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--junit", flags->junit_path, "Also write a JUnit XML report to this file")->check(output_file_name());
  cmd->add_option("--html", flags->html_path,
                  "Also write an HTML report to this file (with the stories of the first failing seeds)")
      ->check(output_file_name());
  cmd->add_option("--results", flags->results_dir,
                  "Folder for the trace files of the first failing seeds (replay one with: spotcheck replay FILE)")
      ->capture_default_str()
      ->check(output_file_name());
  cmd->add_option("--shard", flags->shard,
                  "Run shard K of N: every N-th seed of the range, from its K-th (spotcheck merge joins the shards)");
  cmd->add_option("--summary-json", flags->summary_json_path,
                  "Also write the campaign's result as JSON to this file (what spotcheck merge reads)")
      ->check(output_file_name());
  cmd->add_flag("--require-marks", flags->require_marks,
                "Fail the campaign when a coverage mark the scenario requires never fired (docs/marks.md)");
  cmd->add_option("--out-of-contract", flags->out_of_contract,
                  "Also inject faults outside the spec's assumptions: all, or a comma list of store-clock-jump, "
                  "store-lost-writes, node-clock-step. A seed that fails only because of them is re-run without "
                  "each to name the assumption it needs, and reported apart (docs/scenarios.md)");
  cmd->add_flag("--quiet,-q", flags->quiet, "No progress line");
  cmd->callback([flags, &exit_code] { exit_code = run(*flags); });
}

}  // namespace spotcheck::cli
