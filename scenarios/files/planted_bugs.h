// The protocol's planted bugs (LocationConfig::test_only_bugs) as a scenario file names them in
// "plantedBugs": a user shows a property catching a broken protocol from the command line, and
// `spotcheck shrink` writes a planted bug into the file it produces. Only the bugs a Location
// scenario's traffic can reach are here (no Instance Spot traffic runs in these scenarios).
#pragma once

#include <span>
#include <string_view>

#include "impl/location/config/location_config.h"

namespace spotcheck::scenarios::files {

struct PlantedBugInfo {
  std::string_view name;  // kebab-case, as written in a scenario file
  std::string_view description;
  bool spotcheck::location::LocationConfig::TestOnlyBugs::*flag;
};

// In a fixed order (the order a written file lists them).
std::span<const PlantedBugInfo> planted_bugs();
// The one named `name`, or nullptr.
const PlantedBugInfo* find_planted_bug(std::string_view name);

}  // namespace spotcheck::scenarios::files
