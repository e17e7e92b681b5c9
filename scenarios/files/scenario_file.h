// Scenario files: a Location scenario a user writes as JSON (docs/scenarios.md "Scenario files").
//
//   spotcheck run --scenario path/to/scenario.json --seeds 500
//
// Reading is strict: an unknown key, a wrong type, a value out of range or a protocol timing that
// breaks spec §5 is an error naming the file and the JSON path, and nothing runs.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "scenarios/location/location_scenario.h"

namespace spotcheck::scenarios::files {

inline constexpr int kScenarioFileVersion = 1;

struct ScenarioFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses a scenario document; `origin` names it in errors (a path, or "<text>").
location::LocationScenarioConfig parse_scenario(std::string_view json_text, const std::string& origin);
// Reads and parses a file. Throws ScenarioFileError (unreadable file, or any parse error).
location::LocationScenarioConfig load_scenario_file(const std::string& path);

}  // namespace spotcheck::scenarios::files
