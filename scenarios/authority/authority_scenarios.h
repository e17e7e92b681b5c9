// The built-in Location runtime scenarios (see docs/scenarios.md).
#pragma once

#include <memory>
#include <vector>

#include "scenarios/authority/authority_scenario.h"

namespace spotcheck::scenarios::authority {

// default, authority-race, lease-pause, store-outage, churn, relocation.
std::vector<std::unique_ptr<Scenario>> make_authority_scenarios();
// The configuration behind one built-in scenario by name (tests plant bugs through it).
AuthorityScenarioConfig authority_scenario_config(const std::string& name);

}  // namespace spotcheck::scenarios::authority
