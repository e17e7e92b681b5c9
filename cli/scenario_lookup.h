// Turns what the user typed after --scenario into a scenario, or a one-line UsageError.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "scenarios/registry/scenario.h"

namespace spotcheck::cli {

const scenarios::Scenario& find_scenario(const std::string& name_or_file);

// The scenario file a --scenario value names (a path with '/' or ending in .json), or "" for a
// built-in name: the input that no output of the command may overwrite.
std::string scenario_file_path(const std::string& name_or_file);

// The value of --out-of-contract (faults/out_of_contract.h: "all" or a comma list of kinds) as a
// set; 0 when the flag was not given. A bad value (an empty one too), or one for a scenario that
// runs no protocol, is a UsageError.
std::uint32_t out_of_contract_flag(const std::optional<std::string>& value, const scenarios::Scenario& scenario);

}  // namespace spotcheck::cli
