#include "scenarios/registry/registry.h"

#include "impl/check/check.h"

namespace spotcheck::scenarios {

void Registry::add(std::unique_ptr<Scenario> scenario) {
  SPOTCHECK_ASSERT_ABORT(scenario != nullptr);
  const std::string name = scenario->name();
  const bool inserted = scenarios_.emplace(name, std::move(scenario)).second;
  SPOTCHECK_ASSERT_ABORT(inserted && "two scenarios share one name");
  (void)inserted;
}

const Scenario* Registry::find(const std::string& name) const {
  auto it = scenarios_.find(name);
  return it == scenarios_.end() ? nullptr : it->second.get();
}

std::vector<const Scenario*> Registry::all() const {
  std::vector<const Scenario*> out;
  out.reserve(scenarios_.size());
  for (const auto& [name, scenario] : scenarios_) {
    out.push_back(scenario.get());
  }
  return out;
}

}  // namespace spotcheck::scenarios
