#include "scenarios/files/planted_bug_catalogue.h"

#include <array>
#include <string>

#include "impl/check/check.h"

namespace spotcheck::scenarios::files {
namespace {

using planted::PlantedBug;
constexpr PlantedIn kLoc = PlantedIn::kLocationConfig;
constexpr PlantedIn kCre = PlantedIn::kCreationConfig;

//  name, description, bug, read from, location / creation / instance files, caught in, caught by
constexpr std::array<PlantedBugInfo, planted::kPlantedBugCount> kPlantedBugs{{
    {"admit-past-deadline", "handlers run past the local admission deadline (spec §5)",
     PlantedBug::kAdmitPastDeadline, kLoc, true, true, true, "lease-pause", "single-owner"},
    {"unfenced-writes",
     "authority writes skip the admission check, and the store seam drops their own-lease condition (§5)",
     PlantedBug::kUnfencedWrites, kLoc, true, true, false, "lease-pause", "fencing"},
    {"leak-capacity-on-release", "Delete and Abort keep the released capacity counted (§3.3)",
     PlantedBug::kLeakCapacityOnRelease, kLoc, true, true, true, "default", "capacity"},
    {"new-owner-keeps-owner-generation", "NewOwner does not raise AuthorityOwnerGeneration (§3.2)",
     PlantedBug::kNewOwnerKeepsOwnerGeneration, kLoc, true, true, true, "lease-pause", "generations"},
    {"retry-conflicts-past-deadline", "an authority conflict is retried after 2 s, ignoring the request deadline",
     PlantedBug::kRetryConflictsPastDeadline, kLoc, true, true, true, "authority-race", "liveness"},
    {"retry-stale-instance-route",
     "an Instance Spot request is resubmitted after an error that may follow admission (framework 0.26, §7.1)",
     PlantedBug::kRetryStaleInstanceRoute, kLoc, false, false, true, "instance-route", "at-most-once"},
    {"factory-before-verify", "the creation target runs the factory before deduplicating and verifying (§7)",
     PlantedBug::kFactoryBeforeVerify, kCre, false, true, true, "create-storm", "exactly-one-creation"},
    {"capacity-limit-off-by-one", "a node's capacity limit is taken as one slot more than it publishes (§3.3)",
     PlantedBug::kCapacityLimitOffByOne, kLoc, true, false, false, "authority-race", "capacity"},
    {"indeterminate-taken-as-applied",
     "an authority write whose reply never came is taken as applied, without the re-read of §10",
     PlantedBug::kIndeterminateTakenAsApplied, kLoc, true, false, false, "store-outage", "store-truth"},
    {"descriptor-takeover-ignores-lease",
     "a descriptor row is taken over while the owner lease of the host run that published it is still valid (§4)",
     PlantedBug::kDescriptorTakeoverIgnoresLease, kLoc, true, false, false, "churn", "store-truth"},
    {"never-cancel-abandoned",
     "a Creating record whose request deadline passed long ago is never cancelled, so an ID whose source or "
     "target died mid-creation stays Creating for good (§7)",
     PlantedBug::kNeverCancelAbandoned, kCre, false, true, false, "create-storm", "creation-liveness"},
    {"ignore-in-mesh", "a creation places its object in the node's own Mesh, whatever Mesh InMesh names (§7)",
     PlantedBug::kIgnoreInMesh, kCre, false, true, false, "create-storm", "exactly-one-creation"},
    {"recovery-skips-first-message",
     "a restarted node restores an Instance Spot its earlier run left Ready and lets new messages in without "
     "running the stored first message (§7.1)",
     PlantedBug::kRecoverySkipsFirstMessage, kLoc, false, false, true, "instance-route", "instance-first-message"},
    {"data-lost-without-reread",
     "a restore takes the stored first message's first Missing read as permanent and records DataLost, without the "
     "re-reads a temporarily invisible payload is owed (§10)",
     PlantedBug::kDataLostWithoutReread, kLoc, false, false, true, "instance-route", "store-truth"},
    {"cache-outlives-owner-admission",
     "a cached Ready location is kept for RouteCacheMaxAge whatever the owner lease read showed, so a sender routes "
     "by it past the owner's last admission time (§7.3)",
     PlantedBug::kCacheOutlivesOwnerAdmission, kLoc, false, true, false, "message-storm", "route-cache"},
    {"resend-message-on-no-reply",
     "a regular message whose reply did not come by its deadline is sent once more, so one message may run twice "
     "(framework 0.26's retry loop, for object messages)",
     PlantedBug::kResendMessageOnNoReply, kLoc, false, true, false, "message-storm", "object-messages"},
    {"drop-queue-on-deactivate",
     "an instance whose row was removed drops the messages still queued for it without answering them, so their "
     "senders wait out their deadlines and never send them to the ID's next instance: lost with no fault (§7.1)",
     PlantedBug::kDropQueueOnDeactivate, kLoc, false, true, false, "message-storm", "object-messages"},
    {"cas-before-cutover",
     "a relocation target changes the owner right after its relay-ready reply, before cutover or 1,000 ms, so the "
     "source's pre-cutover relay reaches an open queue behind newer messages (§8, §1.3 step 6)",
     PlantedBug::kCasBeforeCutover, kLoc, true, false, false, "relocation", "object-messages"},
    {"saved-work-after-temporary",
     "a relocation target queues the source's saved work after the temporary queue's work, so messages that "
     "followed the object run before older ones it carried (§9.2)",
     PlantedBug::kSavedWorkAfterTemporary, kLoc, true, false, false, "relocation", "object-messages"},
    {"source-reopens-unfenced",
     "a relocation source reopens its queue without fencing the target's CAS: when no relay-ready came by its "
     "Restore deadline (one may have been sent and lost: the target changes the owner 1,000 ms after it), and "
     "when its cutover submit was refused after relay-ready was accepted (§9.4, §10)",
     PlantedBug::kSourceReopensUnfenced, kLoc, true, false, false, "relocation", "single-owner"},
    {"moved-timers-dropped",
     "a relocation target restores the moved object's queue but not the timers its payload carried, so timer "
     "callbacks the application started before the move never run (§1.3 step 3, §9.2)",
     PlantedBug::kMovedTimersDropped, kLoc, true, false, false, "relocation", "object-timers"},
}};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kPlantedBugs.size(); ++i) {
    if (static_cast<std::size_t>(kPlantedBugs[i].bug) != i) {
      return false;
    }
  }
  return true;
}
static_assert(in_enum_order(), "one catalogue entry per PlantedBug, in enum order");

}  // namespace

std::string_view to_string(ScenarioFamily family) {
  switch (family) {
    case ScenarioFamily::kLocation:
      return "Location";
    case ScenarioFamily::kCreation:
      return "creation";
    case ScenarioFamily::kInstance:
      return "Instance Spot";
  }
  return "?";
}

std::string a_scenario_of(ScenarioFamily family) {
  return std::string(family == ScenarioFamily::kInstance ? "an " : "a ") + std::string(to_string(family)) + " scenario";
}

bool PlantedBugInfo::plantable_in(ScenarioFamily family) const {
  switch (family) {
    case ScenarioFamily::kLocation:
      return location;
    case ScenarioFamily::kCreation:
      return creation;
    case ScenarioFamily::kInstance:
      return instance;
  }
  return false;
}

std::span<const PlantedBugInfo> planted_bugs() { return kPlantedBugs; }

const PlantedBugInfo* find_planted_bug(std::string_view name) {
  for (const PlantedBugInfo& bug : kPlantedBugs) {
    if (bug.name == name) {
      return &bug;
    }
  }
  return nullptr;
}

const PlantedBugInfo& planted_bug_info(planted::PlantedBug bug) {
  const std::size_t index = static_cast<std::size_t>(bug);
  SPOTCHECK_ASSERT_ABORT(index < kPlantedBugs.size());
  return kPlantedBugs[index];
}

}  // namespace spotcheck::scenarios::files
