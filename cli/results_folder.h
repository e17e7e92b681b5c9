// The results folder (`--results DIR`, default spotcheck-results/): where `spotcheck run` writes the
// trace files of failing seeds and `spotcheck shrink` its shrunk scenario file and trace file.
#pragma once

#include <optional>
#include <string>

namespace spotcheck::cli {

inline constexpr const char* kDefaultResultsDir = "spotcheck-results";

// A file-name-safe name for the --scenario value: a built-in name, or a scenario file's stem
// (anything but [A-Za-z0-9-] becomes '_').
std::string scenario_slug(const std::string& scenario_flag);
// The scenario file's text when --scenario names a file (bounded to 1 MiB), else nullopt.
std::optional<std::string> scenario_file_text(const std::string& scenario_flag);
// Makes the folder (and its parents); throws reports::OutputError with one line when it cannot.
void make_results_dir(const std::string& dir);

}  // namespace spotcheck::cli
