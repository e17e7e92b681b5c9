// Output paths given on the command line are refused, one line each, when they cannot be what the
// user meant: an empty path, a path that starts with '-' (a flag taken as the value, as in
// `--html --quiet`), two outputs on one file, or an output on top of an input (`--junit v.json`
// when v.json is the scenario).
#pragma once

#include <string>
#include <vector>

namespace spotcheck::cli {

struct NamedPath {
  std::string flag;  // "--junit", "--scenario"
  std::string path;  // empty: not given
};

// Throws UsageError. Inputs are only compared against the outputs; unset paths are skipped.
void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

}  // namespace spotcheck::cli
