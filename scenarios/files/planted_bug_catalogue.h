// The catalogue of planted bugs (impl/planted/planted_bugs.h) as users see them: the name a
// scenario file's "plantedBugs" and `spotcheck list` use, what the bug breaks, which scenario
// families can plant it, and the built-in scenario and property that catch it (each pair is a test:
// tests/campaign/planted_bug_test.cpp, tests/location_creation/, tests/instance_scenario/,
// tests/scenario_files/planted_bug_file_test.cpp).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "impl/planted/planted_bugs.h"

namespace spotcheck::scenarios::files {

// The scenario families a file's "base" can name.
enum class ScenarioFamily { kLocation, kCreation, kInstance };
std::string_view to_string(ScenarioFamily family);
// "a Location scenario", "an Instance Spot scenario", ...
std::string a_scenario_of(ScenarioFamily family);

// Which config a planted bug is read from.
enum class PlantedIn { kLocationConfig, kCreationConfig };

struct PlantedBugInfo {
  std::string_view name;  // kebab-case, as written in a scenario file
  std::string_view description;
  planted::PlantedBug bug;
  PlantedIn planted_in;
  // The families whose files may plant it: their nodes run the code it breaks and, for a bug at
  // a seam, their scenario wires the seam's decorator (faults/planted/).
  bool location = false;
  bool creation = false;
  bool instance = false;
  std::string_view caught_in;  // the built-in scenario whose campaign catches it
  std::string_view caught_by;  // ... with this property alone

  bool plantable_in(ScenarioFamily family) const;
};

// In a fixed order (the order a written file lists them); one entry per planted::PlantedBug.
std::span<const PlantedBugInfo> planted_bugs();
// The one named `name`, or nullptr.
const PlantedBugInfo* find_planted_bug(std::string_view name);
const PlantedBugInfo& planted_bug_info(planted::PlantedBug bug);

}  // namespace spotcheck::scenarios::files
