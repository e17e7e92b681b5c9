// Scenario files: a scenario a user writes as JSON (docs/scenarios.md "Scenario files").
//
//   spotcheck run --scenario path/to/scenario.json --seeds 500
//
// Reading is strict: an unknown or duplicate key, a wrong type, a value out of range or a protocol
// timing that breaks spec §5 is an error naming the file and the JSON path, and nothing runs.
// A file larger than kScenarioFileBytesMax or nested deeper than json_guard::kDepthMax is refused
// before it is parsed (impl/json_guard/).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scenarios/authority/authority_scenario.h"
#include "scenarios/files/scenario_file_limits.h"

namespace spotcheck::scenarios::files {

// Parses a Location scenario document; `origin` names it in errors (a path, or "<text>"). A file
// whose base is of another family is refused here (any_scenario_file.h reads every family).
authority::AuthorityScenarioConfig parse_scenario(std::string_view json_text, const std::string& origin);
// Reads and parses a file. Throws ScenarioFileError (unreadable file, or any parse error).
authority::AuthorityScenarioConfig load_scenario_file(const std::string& path);

// ---- writing (the inverse of parse_scenario) ----------------------------------------------------

struct ScenarioFileText {
  std::string json;
  // Settings of the config a scenario file cannot hold ("protocol.planted_bugs" for a planted
  // bug a Location file cannot plant, "protocol.retry_bounds", "workload.mesh_name"): the written
  // file runs without them.
  std::vector<std::string> not_written;
};

// Every value explicit, on base "default", faults as an object (the plan the config gives at its
// own faults_stop_us). The text is read back before it is returned: parse_scenario gives `config`
// again, apart from `not_written`. Throws ScenarioFileError when a value cannot be written exactly
// (a duration that is not whole milliseconds, a fault window with a zero gap or length, ...).
ScenarioFileText write_scenario(const authority::AuthorityScenarioConfig& config);
// The first difference between two configs, as "<what>: <a> vs <b>"; "" when they are the same.
// Plans are compared as each config gives them at its own faults_stop_us.
std::string scenario_difference(const authority::AuthorityScenarioConfig& a, const authority::AuthorityScenarioConfig& b);

namespace detail {
class ObjectReader;  // file_reading.h
// The rest of a Location file (everything but "scenarioVersion" and "base"): parse_scenario's
// body, which any_scenario_file.cpp calls for a Location base.
authority::AuthorityScenarioConfig read_location_file(ObjectReader& top, const std::string& base);
}  // namespace detail

}  // namespace spotcheck::scenarios::files
