// Turns what the user typed after --scenario into a scenario, or a one-line UsageError.
#pragma once

#include <string>

#include "scenarios/registry/scenario.h"

namespace spotcheck::cli {

const scenarios::Scenario& find_scenario(const std::string& name_or_file);

}  // namespace spotcheck::cli
