// Turns what the user typed after --scenario into a scenario, or a one-line UsageError.
#pragma once

#include <string>

#include "scenarios/registry/scenario.h"

namespace spotcheck::cli {

const scenarios::Scenario& find_scenario(const std::string& name_or_file);

// The scenario file a --scenario value names (a path with '/' or ending in .json), or "" for a
// built-in name: the input that no output of the command may overwrite.
std::string scenario_file_path(const std::string& name_or_file);

}  // namespace spotcheck::cli
