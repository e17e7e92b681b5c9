#include "scenarios/creation/creation_scenarios.h"
#include "scenarios/instance/instance_scenario.h"
#include "scenarios/authority/authority_scenarios.h"
#include "scenarios/registry/registry.h"
#include "scenarios/synthetic/synthetic_scenario.h"

namespace spotcheck::scenarios {

Registry& builtin_scenarios() {
  static Registry registry = [] {
    Registry r;
    r.add(synthetic::make_synthetic_scenario());
    for (auto& scenario : authority::make_authority_scenarios()) {
      r.add(std::move(scenario));
    }
    for (auto& scenario : creation::make_creation_scenarios()) {
      r.add(std::move(scenario));
    }
    for (auto& scenario : instance::make_instance_scenarios()) {
      r.add(std::move(scenario));
    }
    return r;
  }();
  return registry;
}

}  // namespace spotcheck::scenarios
