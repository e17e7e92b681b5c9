#include "scenarios/files/any_scenario_file.h"

#include <utility>

#include "scenarios/files/family_files.h"
#include "scenarios/files/file_reading.h"

namespace spotcheck::scenarios::files {

using detail::json;
using detail::ObjectReader;

AnyScenarioConfig parse_any_scenario(std::string_view json_text, const std::string& origin) {
  const json document = detail::parse_document(json_text, origin);
  ObjectReader top(document, "", origin);
  const std::string base = detail::read_version_and_base(top);
  switch (*detail::family_of_base(base)) {
    case ScenarioFamily::kLocation:
      return detail::read_location_file(top, base);
    case ScenarioFamily::kCreation:
      return detail::read_creation_file(top, base);
    case ScenarioFamily::kInstance:
      return detail::read_instance_file(top, base);
  }
  top.fail("base", "names no family");
}

AnyScenarioConfig load_any_scenario_file(const std::string& path) {
  return parse_any_scenario(detail::read_file_text(path), path);
}

ScenarioFileText write_any_scenario(const AnyScenarioConfig& config) {
  if (const auto* creation = std::get_if<creation::CreationScenarioConfig>(&config)) {
    return write_creation_scenario(*creation);
  }
  if (const auto* instance = std::get_if<instance::InstanceScenarioConfig>(&config)) {
    return write_instance_scenario(*instance);
  }
  return write_scenario(std::get<authority::AuthorityScenarioConfig>(config));
}

std::unique_ptr<Scenario> make_file_scenario(AnyScenarioConfig config) {
  if (auto* location = std::get_if<authority::AuthorityScenarioConfig>(&config)) {
    return std::make_unique<authority::AuthorityScenario>(std::move(*location));
  }
  if (auto* creation = std::get_if<creation::CreationScenarioConfig>(&config)) {
    return std::make_unique<creation::CreationScenario>(std::move(*creation));
  }
  return std::make_unique<instance::InstanceScenario>(std::get<instance::InstanceScenarioConfig>(std::move(config)));
}

bool plants_bugs(const AnyScenarioConfig& config) {
  if (const auto* creation = std::get_if<creation::CreationScenarioConfig>(&config)) {
    return !creation->protocol.planted_bugs.empty() || !creation->creation.planted_bugs.empty();
  }
  return std::visit([](const auto& c) { return !c.protocol.planted_bugs.empty(); }, config);
}

AnyScenarioConfig without_planted_bugs(AnyScenarioConfig config) {
  std::visit([](auto& c) { c.protocol.planted_bugs = planted::PlantedBugs{}; }, config);
  if (auto* creation = std::get_if<creation::CreationScenarioConfig>(&config)) {
    creation->creation.planted_bugs = planted::PlantedBugs{};
  }
  return config;
}

}  // namespace spotcheck::scenarios::files
