// Scenario files of every family a file can extend: "base" names a Location built-in (default,
// authority-race, lease-pause, store-outage, churn: every field of docs/scenarios.md), a creation one
// (create-storm, message-storm) or instance-route; family_files.h lists the fields of the last two.
// A field the family does not hold is refused with one line naming its JSON path.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "scenarios/creation/creation_scenario.h"
#include "scenarios/files/scenario_file.h"
#include "scenarios/instance/instance_scenario.h"

namespace spotcheck::scenarios::files {

using AnyScenarioConfig = std::variant<authority::AuthorityScenarioConfig, creation::CreationScenarioConfig,
                                       instance::InstanceScenarioConfig>;

// Throws ScenarioFileError, as parse_scenario does.
AnyScenarioConfig parse_any_scenario(std::string_view json_text, const std::string& origin);
AnyScenarioConfig load_any_scenario_file(const std::string& path);
// The config as a file of its family (write_scenario, write_creation_scenario, ...).
ScenarioFileText write_any_scenario(const AnyScenarioConfig& config);
// The runnable scenario of a file's config.
std::unique_ptr<Scenario> make_file_scenario(AnyScenarioConfig config);

// Whether the config plants a bug (its protocol's or its creation config's planted_bugs), and the
// same config with none planted: the protocol as fixed (the regression corpus, replay/regression).
bool plants_bugs(const AnyScenarioConfig& config);
AnyScenarioConfig without_planted_bugs(AnyScenarioConfig config);

}  // namespace spotcheck::scenarios::files
