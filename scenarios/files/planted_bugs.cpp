#include "scenarios/files/planted_bugs.h"

#include <array>

namespace spotcheck::scenarios::files {
namespace {

using Bugs = spotcheck::location::LocationConfig::TestOnlyBugs;

constexpr std::array<PlantedBugInfo, 5> kPlantedBugs{{
    {"admit-past-deadline", "handlers run past the local admission deadline (spec §5)", &Bugs::admit_past_deadline},
    {"unfenced-writes", "authority writes skip the admission check and the own-lease condition (§5)",
     &Bugs::unfenced_writes},
    {"leak-capacity-on-release", "Delete and Abort keep the released capacity counted (§3.3)",
     &Bugs::leak_capacity_on_release},
    {"new-owner-keeps-owner-generation", "NewOwner does not raise AuthorityOwnerGeneration (§3.2)",
     &Bugs::new_owner_keeps_owner_generation},
    {"retry-conflicts-past-deadline", "an authority conflict is retried after 2 s, ignoring the request deadline",
     &Bugs::retry_conflicts_past_deadline},
}};

}  // namespace

std::span<const PlantedBugInfo> planted_bugs() { return kPlantedBugs; }

const PlantedBugInfo* find_planted_bug(std::string_view name) {
  for (const PlantedBugInfo& bug : kPlantedBugs) {
    if (bug.name == name) {
      return &bug;
    }
  }
  return nullptr;
}

}  // namespace spotcheck::scenarios::files
