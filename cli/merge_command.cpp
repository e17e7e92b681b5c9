// spotcheck merge: the shards of a campaign run on several machines (`spotcheck run --shard K/N
// --summary-json F [--junit J]`) joined into one result, printed like a campaign's summary, with
// the merged JUnit and HTML reports and summary JSON on request. Exit status as `run`'s.
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/build_id.h"
#include "cli/commands.h"
#include "cli/output_paths.h"
#include "impl/json_guard/json_guard.h"
#include "reports/campaign_json.h"
#include "reports/campaign_merge.h"
#include "reports/html_report.h"
#include "reports/junit_merge.h"
#include "reports/junit_xml.h"
#include "reports/output_file.h"
#include "reports/summary_text.h"

namespace spotcheck::cli {

namespace {

struct MergeFlags {
  std::vector<std::string> summaries;  // each shard's --summary-json
  std::vector<std::string> junit_in;   // each shard's --junit
  std::string junit_path;
  std::string html_path;
  std::string summary_json_path;
};

reports::CampaignResult read_summary(const std::string& path) {
  const std::string shown = json_guard::one_line(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError("cannot read campaign summary '" + shown + "'");
  }
  const json_guard::BoundedText text = json_guard::read_bounded(in, reports::kCampaignJsonBytesMax);
  if (text.too_large) {
    throw UsageError("campaign summary '" + shown + "' is larger than " +
                     std::to_string(reports::kCampaignJsonBytesMax) + " bytes");
  }
  auto parsed = reports::campaign_from_json(text.text);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    throw UsageError("campaign summary '" + shown + "': " + *error);
  }
  return std::get<reports::CampaignResult>(std::move(parsed));
}

int merge(const MergeFlags& flags) {
  std::vector<NamedPath> inputs;
  for (const std::string& path : flags.summaries) {
    inputs.push_back({"summary", path});
  }
  for (const std::string& path : flags.junit_in) {
    inputs.push_back({"--junit-in", path});
  }
  check_output_paths({{"--junit", flags.junit_path}, {"--html", flags.html_path}, {"--summary-json", flags.summary_json_path}},
                     inputs);
  if (!flags.junit_path.empty() && flags.junit_in.size() != flags.summaries.size()) {
    throw UsageError("--junit needs one --junit-in per shard (" + std::to_string(flags.summaries.size()) +
                     " summaries, " + std::to_string(flags.junit_in.size()) + " --junit-in)");
  }
  std::vector<reports::CampaignResult> shards;
  for (const std::string& path : flags.summaries) {
    shards.push_back(read_summary(path));
  }
  auto merged = reports::merge_campaigns(std::move(shards));
  if (auto* error = std::get_if<std::string>(&merged)) {
    throw UsageError(*error);
  }
  const reports::CampaignResult& whole = std::get<reports::CampaignResult>(merged);
  std::optional<reports::OutputFile> junit, html, summary;
  try {
    if (!flags.junit_path.empty()) junit.emplace(flags.junit_path, "JUnit report");
    if (!flags.html_path.empty()) html.emplace(flags.html_path, "HTML report");
    if (!flags.summary_json_path.empty()) summary.emplace(flags.summary_json_path, "campaign summary");
  } catch (const reports::OutputError& e) {
    throw UsageError(e.what());
  }
  reports::write_summary_text(whole, std::cout);
  if (junit.has_value()) {
    const auto properties = reports::junit_properties(whole, this_build().commit, this_build().binary_sha256);
    if (auto error = reports::merge_junit(flags.junit_in, whole, properties, junit->stream())) {
      throw UsageError(*error);  // the target path keeps its earlier content
    }
    junit->commit();
  }
  if (html.has_value()) {
    reports::write_html_report(whole, {}, html->stream());
    html->commit();
  }
  if (summary.has_value()) {
    summary->stream() << reports::campaign_to_json(whole);
    summary->commit();
  }
  return whole.passed() ? kExitPassed : kExitViolations;
}

}  // namespace

void add_merge_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<MergeFlags>();
  auto* cmd = app.add_subcommand("merge", "Join the shards of a campaign (run --shard K/N --summary-json F) into one result");
  cmd->add_option("summaries", flags->summaries, "Every shard's --summary-json file")->required();
  cmd->add_option("--junit-in", flags->junit_in, "Every shard's --junit file (for --junit)");
  cmd->add_option("--junit", flags->junit_path, "Write the merged JUnit XML report to this file")->check(output_file_name());
  cmd->add_option("--html", flags->html_path, "Write the merged HTML report to this file")->check(output_file_name());
  cmd->add_option("--summary-json", flags->summary_json_path, "Write the merged result as JSON to this file")
      ->check(output_file_name());
  cmd->callback([flags, &exit_code] { exit_code = merge(*flags); });
}

}  // namespace spotcheck::cli
