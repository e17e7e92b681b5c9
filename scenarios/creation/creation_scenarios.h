// The creation scenario family (registered by scenarios/builtins):
//   create-storm  6 nodes' clients Create / GetOrCreate / destroy the same 3 actors and 2 rooms
//                   under store reply/request loss, node kills, pauses, node-to-node loss and
//                   rejecting / throwing / slow factories.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "scenarios/creation/creation_scenario.h"

namespace spotcheck::scenarios::creation {

// The configuration of a built-in creation scenario by name (asserts on an unknown name).
CreationScenarioConfig creation_scenario_config(const std::string& name);
std::vector<std::unique_ptr<Scenario>> make_creation_scenarios();

}  // namespace spotcheck::scenarios::creation
