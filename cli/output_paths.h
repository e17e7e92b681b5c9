// Output paths given on the command line are refused, one line each, when they cannot be what the
// user meant: an empty path, a path that starts with '-' (a flag taken as the value, as in
// `--html --quiet`), two outputs on one file, or an output on top of an input (`--junit v.json`
// when v.json is the scenario).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace spotcheck::cli {

struct NamedPath {
  std::string flag;  // "--junit", "--scenario"
  std::string path;  // empty: not given
};

// The check of every output-path option's value, run by CLI11 for each value given: an empty path
// and a path that starts with '-' are refused.
CLI::Validator output_file_name();

// Throws UsageError when two outputs, or an output and an input, are one file. Unset paths are
// skipped.
void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

}  // namespace spotcheck::cli
