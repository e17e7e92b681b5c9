#include "cli/scenario_lookup.h"

#include "cli/commands.h"
#include "scenarios/registry/registry.h"

namespace spotcheck::cli {

const scenarios::Scenario& find_scenario(const std::string& name_or_file) {
  const auto& registry = scenarios::builtin_scenarios();
  if (const auto* scenario = registry.find(name_or_file)) {
    return *scenario;
  }
  std::string known;
  for (const auto* s : registry.all()) {
    known += (known.empty() ? "" : ", ") + s->name();
  }
  throw UsageError("unknown scenario '" + name_or_file + "' (known: " + known + "; see `spotcheck list`)");
}

}  // namespace spotcheck::cli
