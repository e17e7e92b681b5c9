#include "scenarios/files/any_scenario_file.h"

#include <utility>

#include "properties/registry.h"
#include "scenarios/creation/creation_scenarios.h"
#include "scenarios/files/file_reading.h"

namespace spotcheck::scenarios::files {
namespace {

using detail::json;
using detail::ObjectReader;

// Fields of a Location file that a creation or Instance Spot file does not take.
constexpr const char* kLocationOnlyFields[] = {"nodes",    "faultsSeconds", "livenessSeconds",
                                               "trafficSeconds", "workload", "protocol"};

void refuse_location_only_fields(ObjectReader& top, const std::string& base, bool properties_allowed) {
  for (const char* key : kLocationOnlyFields) {
    if (top.find(key) != nullptr) {
      top.fail(key, "is not supported for base \"" + base + "\" (only for a Location base)");
    }
  }
  if (!properties_allowed && top.find("properties") != nullptr) {
    top.fail("properties", "is not supported for base \"" + base + "\" (create-storm judges with every property)");
  }
}

// "name", "description", "faults", "maxSteps": the fields every family's file shares.
template <class Config>
void read_common(ObjectReader& top, Config& config) {
  config.name.clear();
  top.text("name", config.name);
  if (config.name.empty()) {
    top.fail("name", "is required and must not be empty");
  }
  top.text("description", config.description);
  if (const json* f = top.find("faults")) {
    const faults::FaultPlan plan = detail::read_faults(top, *f, config.faults_stop_us);
    config.plan = [plan](platform::TimeUs stop_us) {
      faults::FaultPlan p = plan;
      p.faults_stop_us = stop_us;
      return p;
    };
  }
  if (auto marks = detail::read_required_marks(top)) {
    config.required_marks = std::move(*marks);
  }
  top.number("maxSteps", config.max_steps, 1, 1e12);
}

creation::CreationScenarioConfig read_creation_file(ObjectReader& top, const std::string& base) {
  creation::CreationScenarioConfig config = creation::creation_scenario_config(base);
  refuse_location_only_fields(top, base, false);
  read_common(top, config);
  if (const json* bugs = top.find("plantedBugs")) {
    detail::plant(detail::read_planted_bugs(top, *bugs, ScenarioFamily::kCreation, base), config.protocol,
                  &config.creation);
  }
  top.reject_unknown_keys();
  return config;
}

instance::InstanceScenarioConfig read_instance_file(ObjectReader& top, const std::string& base) {
  instance::InstanceScenarioConfig config = instance::instance_scenario_config(base);
  refuse_location_only_fields(top, base, true);
  read_common(top, config);
  if (const json* bugs = top.find("plantedBugs")) {
    detail::plant(detail::read_planted_bugs(top, *bugs, ScenarioFamily::kInstance, base), config.protocol,
                  &config.creation);
  }
  if (const json* names = top.find("properties")) {
    const auto known = [](const std::string& name) { return properties::find_property(name) != nullptr; };
    config.properties =
        detail::read_names(top, *names, "properties", known, detail::joined_names(properties::all_properties()));
    if (config.properties.empty()) {
      top.fail("properties", "must name at least one property (leave it out for every property)");
    }
  }
  top.reject_unknown_keys();
  return config;
}

}  // namespace

AnyScenarioConfig parse_any_scenario(std::string_view json_text, const std::string& origin) {
  const json document = detail::parse_document(json_text, origin);
  ObjectReader top(document, "", origin);
  const std::string base = detail::read_version_and_base(top);
  switch (*detail::family_of_base(base)) {
    case ScenarioFamily::kLocation:
      return detail::read_location_file(top, base);
    case ScenarioFamily::kCreation:
      return read_creation_file(top, base);
    case ScenarioFamily::kInstance:
      return read_instance_file(top, base);
  }
  top.fail("base", "names no family");
}

AnyScenarioConfig load_any_scenario_file(const std::string& path) {
  return parse_any_scenario(detail::read_file_text(path), path);
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
