// Scenario files of the creation family (base create-storm or message-storm) and the Instance Spot
// family (base instance-route): reading their fields and writing a config back as a file
// (docs/scenarios.md "Creation and Instance Spot files"). Location files are scenario_file.h's.
//
// Both hold "name", "description", the phases ("faultsSeconds", "livenessSeconds",
// "trafficSeconds"), the node counts, a "workload" object of the family's own keys, "faults",
// "plantedBugs", "properties", "requireMarks" and "maxSteps"; a creation file also "nodeLinks"
// (loss, bursts and the latency tail on the links between nodes). What a file leaves out is its
// base's.
#pragma once

#include <string>

#include "scenarios/creation/creation_scenario.h"
#include "scenarios/files/scenario_file.h"
#include "scenarios/instance/instance_scenario.h"

namespace spotcheck::scenarios::files {

namespace detail {
class ObjectReader;  // file_reading.h
// The rest of a file (everything but "scenarioVersion" and "base") on `base`.
creation::CreationScenarioConfig read_creation_file(ObjectReader& top, const std::string& base);
instance::InstanceScenarioConfig read_instance_file(ObjectReader& top, const std::string& base);
}  // namespace detail

// Every value a file holds explicit, on the config's base. Read back before it is returned (the
// text means the config, apart from `not_written`); throws ScenarioFileError when it cannot be
// written exactly.
ScenarioFileText write_creation_scenario(const creation::CreationScenarioConfig& config);
ScenarioFileText write_instance_scenario(const instance::InstanceScenarioConfig& config);
// The first difference, as "<what>: <a> vs <b>"; "" when the configs are the same in everything a
// file holds.
std::string creation_scenario_difference(const creation::CreationScenarioConfig& a,
                                         const creation::CreationScenarioConfig& b);
std::string instance_scenario_difference(const instance::InstanceScenarioConfig& a,
                                         const instance::InstanceScenarioConfig& b);

}  // namespace spotcheck::scenarios::files
