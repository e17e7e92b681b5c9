#include "cli/scenario_lookup.h"

#include <map>
#include <memory>

#include "cli/commands.h"
#include "faults/out_of_contract.h"
#include "scenarios/files/any_scenario_file.h"
#include "scenarios/registry/registry.h"

namespace spotcheck::cli {

namespace {

bool looks_like_file(const std::string& name) {
  return name.find('/') != std::string::npos || (name.size() > 5 && name.ends_with(".json"));
}

}  // namespace

std::string scenario_file_path(const std::string& name_or_file) {
  return looks_like_file(name_or_file) && scenarios::builtin_scenarios().find(name_or_file) == nullptr ? name_or_file
                                                                                                      : std::string();
}

const scenarios::Scenario& find_scenario(const std::string& name_or_file) {
  const auto& registry = scenarios::builtin_scenarios();
  if (const auto* scenario = registry.find(name_or_file)) {
    return *scenario;
  }
  if (looks_like_file(name_or_file)) {
    // Loaded once per process; the campaign's threads share the (immutable) scenario.
    static std::map<std::string, std::unique_ptr<scenarios::Scenario>> loaded;
    auto& slot = loaded[name_or_file];
    if (slot == nullptr) {
      try {
        slot = scenarios::files::make_file_scenario(scenarios::files::load_any_scenario_file(name_or_file));
      } catch (const scenarios::files::ScenarioFileError& e) {
        loaded.erase(name_or_file);
        throw UsageError(e.what());
      }
    }
    return *slot;
  }
  std::string known;
  for (const auto* s : registry.all()) {
    known += (known.empty() ? "" : ", ") + s->name();
  }
  throw UsageError("unknown scenario '" + name_or_file + "' (known: " + known +
                   "; or a scenario file ending in .json; see `spotcheck list`)");
}

std::uint32_t out_of_contract_flag(const std::optional<std::string>& value, const scenarios::Scenario& scenario) {
  if (!value.has_value()) {
    return 0;
  }
  std::string error;
  const auto set = faults::parse_out_of_contract(*value, error);
  if (!set.has_value()) {
    throw UsageError("--out-of-contract: " + error);
  }
  if (!scenario.takes_out_of_contract()) {
    throw UsageError("--out-of-contract: scenario '" + scenario.name() +
                     "' runs no protocol against the simulated store; use a Location scenario");
  }
  return *set;
}

}  // namespace spotcheck::cli
