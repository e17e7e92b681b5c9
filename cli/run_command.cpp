// spotcheck run: a fault campaign over many seeds.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "cli/campaign/campaign_runner.h"
#include "cli/commands.h"
#include "cli/scenario_lookup.h"
#include "replay/story/story.h"
#include "reports/html_report.h"
#include "reports/junit_xml.h"
#include "reports/summary_text.h"

namespace spotcheck::cli {

namespace {

struct RunFlags {
  std::string scenario = "default";
  std::uint64_t seeds = 100;
  std::uint64_t first_seed = 1;
  unsigned jobs = 0;  // 0: one per core
  bool swarm = false;
  bool check_determinism = false;
  bool quiet = false;
  std::string junit_path;
  std::string html_path;
};

// Stories of the first few violating seeds for the HTML report: each seed runs once more with its
// trace kept (bit for bit the campaign's run) and replay/story picks the events that tell it.
constexpr std::size_t kHtmlStoriesMax = 5;

std::vector<reports::FailureStory> tell_failure_stories(const scenarios::Scenario& scenario,
                                                        const reports::CampaignResult& result) {
  std::vector<reports::FailureStory> stories;
  for (const scenarios::SeedOutcome& failure : result.failures) {
    if (stories.size() == kHtmlStoriesMax) {
      break;
    }
    if (!failure.violation.has_value()) {
      continue;
    }
    const scenarios::SeedOutcome traced = scenario.run(scenarios::SeedRequest{failure.seed, result.swarm, true});
    reports::FailureStory story{failure.seed, {}};
    if (!traced.violation.has_value() || traced.trace_hash != failure.trace_hash) {
      story.lines.push_back("the traced replay of this seed did not repeat the campaign's run (a determinism bug)");
    } else {
      std::ostringstream text;
      replay::print_story(replay::tell_story(traced.event_lines, *traced.violation), *traced.violation, text);
      std::istringstream lines(text.str());
      for (std::string line; std::getline(lines, line);) {
        story.lines.push_back(line);
      }
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

int run(const RunFlags& flags) {
  const auto& scenario = find_scenario(flags.scenario);
  if (flags.seeds == 0) {
    throw UsageError("--seeds must be at least 1");
  }
  std::ofstream junit;
  if (!flags.junit_path.empty()) {
    junit.open(flags.junit_path);
    if (!junit) {
      throw UsageError("cannot write JUnit report to '" + flags.junit_path + "'");
    }
  }
  std::ofstream html;
  if (!flags.html_path.empty()) {
    html.open(flags.html_path);
    if (!html) {
      throw UsageError("cannot write HTML report to '" + flags.html_path + "'");
    }
  }
  CampaignOptions options;
  options.scenario = &scenario;
  options.scenario_label = flags.scenario;
  options.first_seed = flags.first_seed;
  options.seeds = flags.seeds;
  options.jobs = flags.jobs != 0 ? flags.jobs : std::max(1u, std::thread::hardware_concurrency());
  options.swarm = flags.swarm;
  options.check_determinism = flags.check_determinism;
  if (!flags.quiet) {
    const bool tty = isatty(STDERR_FILENO) != 0;
    // Without a terminal, one progress line every few seconds is plenty.
    auto last_printed = std::make_shared<double>(-10.0);
    options.on_progress = [tty, last_printed](const CampaignProgress& p) {
      if (tty || p.seeds_done == p.seeds_total || p.wall_seconds - *last_printed >= 5.0) {
        *last_printed = p.wall_seconds;
        print_progress(p, tty);
      }
    };
  }
  const auto result = run_campaign(options);
  reports::write_summary_text(result, std::cout);
  if (junit.is_open()) {
    reports::write_junit_xml(result, junit);
  }
  if (html.is_open()) {
    reports::write_html_report(result, tell_failure_stories(scenario, result), html);
  }
  return result.passed() ? kExitPassed : kExitViolations;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<RunFlags>();
  auto* cmd = app.add_subcommand("run", "Run a fault campaign: one scenario over many seeds");
  cmd->add_option("--scenario", flags->scenario, "Scenario name (see `spotcheck list`) or a scenario file (.json)")->capture_default_str();
  cmd->add_option("--seeds", flags->seeds, "How many seeds to run")->capture_default_str();
  cmd->add_option("--seed", flags->first_seed, "First seed of the range")->capture_default_str();
  cmd->add_option("--jobs,-j", flags->jobs, "Seeds run at once (default: one per core)")->check(CLI::Range(1u, 1024u));
  cmd->add_flag("--swarm", flags->swarm, "Each seed draws which fault kinds are on and how hard");
  cmd->add_flag("--check-determinism", flags->check_determinism,
                "Run every seed twice and compare the traces event by event");
  cmd->add_option("--junit", flags->junit_path, "Also write a JUnit XML report to this file");
  cmd->add_option("--html", flags->html_path,
                  "Also write an HTML report to this file (with the stories of the first failing seeds)");
  cmd->add_flag("--quiet,-q", flags->quiet, "No progress line");
  cmd->callback([flags, &exit_code] { exit_code = run(*flags); });
}

}  // namespace spotcheck::cli
