// The built-in Location runtime scenarios (see docs/scenarios.md).
#pragma once

#include <memory>
#include <vector>

#include "scenarios/location/location_scenario.h"

namespace spotcheck::scenarios::location {

// default, authority-race, lease-pause, store-outage, churn.
std::vector<std::unique_ptr<Scenario>> make_location_scenarios();
// The configuration behind one built-in scenario by name (tests plant bugs through it).
LocationScenarioConfig location_scenario_config(const std::string& name);

}  // namespace spotcheck::scenarios::location
