// Coverage marks ("sometimes" marks): the protocol marks its rare branches, one line each,
//
//   platform::sometimes(_platform.events, Mark::kContentionRetry);
//
// and a campaign counts how often each fired (docs/marks.md). A mark is no event: it is not in the
// trace and not in its hash, and it changes nothing in the run. A scenario requires the marks its
// workload and faults must reach; `spotcheck run --require-marks` fails when one never fired.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace spotcheck::platform {

enum class Mark : std::uint8_t {
  kIndeterminateResolvedApplied,     // §10: a re-read found the indeterminate write applied
  kIndeterminateResolvedNotApplied,  // §10: a re-read found it not applied
  kIndeterminateUnresolved,          // §10: the re-reads could not tell; reported indeterminate
  kContentionRetry,                  // an authority write retried after a conflict (§3.1)
  kCapacityFull,                     // a full node refused an allocation (§3.3)
  kDescriptorTakeover,               // a descriptor row of an ended host run is taken over (§4)
  kCreationAnsweredFromStore,        // a Create answered by its stored final result (§7)
  kCreationWaitsOnCreating,          // GetOrCreate waits for another request's Creating row (§7)
  kInstanceRoute,                    // an Instance Spot target answers with a route (§7.1)
  kInstanceReadyDelivery,            // a first message delivered to a Ready instance (§7.1)
  kOwnerSweepDeleted,                // the shutdown owner sweep deleted a row of its host run (§11)
  kEarlierAttemptAppliedLate,        // §10: a retry's conflict was an earlier attempt that applied late
  kGenerationExhausted,              // §3.2: the ObjectGeneration sequence is at its end; nothing written
  kStartupRefused,                   // §5: a host run's timing broke the startup rule; it did not start
  kDescriptorRevised,                // §4: update() stored the descriptor under its next Revision
  kDescriptorRenewIgnored,           // §4: a publish at a Revision the store already held wrote nothing
  kScanExpiredRestart,               // §7.4, §11: a scan expired between pages; the list starts over
  kLeaseLostInReread,                // §5, §10: the owner lease was lost while a re-read resolved a lease write
  kCreationResultReadUnknown,        // §7, §10: the check for a stored final result could not read; asked again
  kOwnerSweepRowChanged,             // §11: a row the owner sweep listed changed before its delete; left alone
  kCrashAfterPayloadStored,          // §7.1: a target died after storing the payload, before Creating (a fault)
  kCrashAfterCreating,               // §7.1: a target died after recording Creating, before Ready (a fault)
  kCrashAfterReady,                  // §7.1: a target died after Ready, before the first message ran (a fault)
  kRecoveryCreatingCancelled,        // §7.1: a restarted node cancelled the Creating row its earlier run left
  kRecoveryFirstMessageRestored,     // §7.1: a restarted node restored an instance from its stored first message
  kRecoveryCompletedRemoved,         // §3.3: a restarted node removed a Ready row whose instance died with its run
  kIndeterminateResolvedSuperseded,  // §10: a re-read found another writer's change over the row first read
  kRenewFaultHit,                    // §5: store-renew-lost hit an owner lease renew (the store host; a fault)
  kOperationIdReusedAcrossRuns,      // §7: a client retried a kept OperationId in a later host run (a workload)
  kPayloadFoundOnReread,             // §10: a stored first message that read missing was found on a re-read
  kRecoveryDataLost,                 // §10: a restore found the stored first message lost or other bytes: DataLost
  kPayloadDamageHit,                 // store-payload-damage lost or corrupted a stored payload (the store host; a fault)
  kRouteCacheHit,                    // §7.3: a message went over a cached Ready location
  kRouteCacheDropped,                // §7.3: a cached location went before its bound (refused, or no reply)
  kTurnRefusedAdmission,             // §5: a queued message or due timer did not start: admission closed
  kTimerFired,                       // §5: a timer callback started as a turn of its object
  kInstanceReincarnated,             // §7.1: Close with Reincarnate made the Spot's next incarnation Ready here
  kSendRan,                          // §9.3: a Send (no reply route) ran as a turn of its object
  kRemovalFoundRowGone,              // §7.2: a removal's Delete failed and the row was gone: instance dropped
  kRelocationCancelled,              // §9.4: a relocation source reopened its queue before relay-ready was accepted
  kRelocationCutoverWait,            // §1.3: a relocation target changed the owner 1,000 ms after relay-ready, no cutover
  kRelocationLateRelay,              // §7.3: a relayed message reached a target whose dispatch was already open
  kRelocationCutoverRefused,         // §9.4, §10: a source's cutover submit was refused (admission closed); no reopen
  kRelocationTargetFailed,           // §10: a relocation target attempt ended without becoming owner
  kRelocationFollowed,               // §7.3: Message Follow forwarded a message to the object's next owner
  kRelocationTimersMoved,            // §1.3: a move carried timers not yet run and the target armed them
  kRelocationRejected,               // §2: a relocation policy refused a move before Capture
  kRelocationStateRestored,          // §2: PreserveStateWith: the target restored the captured state
  kRelocationRecreated,              // §2: RecreateOnRelocation: the target restored without state
};
inline constexpr std::size_t kMarkCount = 49;
static_assert(static_cast<std::size_t>(Mark::kRelocationRecreated) + 1 == kMarkCount,
              "kMarkCount: the last Mark + 1");

struct MarkInfo {
  std::string_view name;  // as --require-marks, a summary and `spotcheck list` write it
  std::string_view description;
};

// By Mark, in enum order.
inline constexpr std::array<MarkInfo, kMarkCount> kMarks{{
    {"indeterminate-resolved-applied", "a re-read found an indeterminate write applied (§10)"},
    {"indeterminate-resolved-not-applied", "a re-read found an indeterminate write not applied (§10)"},
    {"indeterminate-unresolved", "the re-reads could not tell; the write is reported indeterminate (§10)"},
    {"contention-retry", "an authority write retried after a conflict (§3.1)"},
    {"capacity-full", "a full node refused an allocation (§3.3)"},
    {"descriptor-takeover", "a descriptor row of an ended host run is taken over (§4)"},
    {"creation-answered-from-store", "a Create answered by its stored final result (§7)"},
    {"creation-waits-on-creating", "GetOrCreate waits for another request's Creating row (§7)"},
    {"instance-route", "an Instance Spot target answers with a route to the Ready owner (§7.1)"},
    {"instance-ready-delivery", "a first message delivered to a Ready instance (§7.1)"},
    {"owner-sweep-deleted", "the shutdown owner sweep deleted a row of its host run (§11)"},
    {"earlier-attempt-applied-late",
     "a retried authority write conflicted with an earlier attempt of its own that had applied late (§10)"},
    {"generation-exhausted", "a Reserve met the end of the ObjectGeneration sequence: GenerationExhausted (§3.2)"},
    {"startup-refused", "a host run whose owner-lease timing breaks §5 was refused at startup (§5)"},
    {"descriptor-revised", "update() stored a host's descriptor under its next Revision (§4)"},
    {"descriptor-renew-ignored", "a descriptor published again at a Revision the store already held wrote nothing (§4)"},
    {"scan-expired-restart", "a descriptor list or owner sweep scan expired between pages and started over (§7.4, §11)"},
    {"lease-lost-in-reread",
     "the owner lease was lost while a re-read resolved a lease write whose reply was lost (§5, §10)"},
    {"creation-result-read-unknown",
     "the check for a stored final result before creation could not read the store and asked again (§7, §10)"},
    {"owner-sweep-row-changed",
     "a row the shutdown owner sweep listed had changed by its re-read or its delete, and was left alone (§11)"},
    {"crash-after-payload-stored",
     "a cold-activation target died after storing the request, before recording Creating (fault; §7.1)"},
    {"crash-after-creating", "a cold-activation target died after recording Creating, before Ready (fault; §7.1)"},
    {"crash-after-ready",
     "a cold-activation target died after recording Ready, before its first message ran (fault; §7.1)"},
    {"recovery-creating-cancelled",
     "a restarted node cancelled the Creating row of an Instance Spot its earlier host run left (§7.1)"},
    {"recovery-first-message-restored",
     "a restarted node restored an Instance Spot from its stored first message before any new message (§7.1)"},
    {"recovery-completed-removed",
     "a restarted node removed the Ready row of an Instance Spot whose instance died with its earlier host run (§3.3)"},
    {"indeterminate-resolved-superseded",
     "a re-read after an indeterminate authority write found another writer's change over the row first read: ours "
     "is not there, and the write is planned again as a conflict (§10)"},
    {"renew-fault-hit",
     "store-renew-lost hit an owner lease renew write: lost, applied with its reply lost, refused or applied late, "
     "while reads were served (fault; §5)"},
    {"operation-id-reused",
     "a client retried a creation with an OperationId it kept from an earlier host run of its node: a new request "
     "of the same OperationId (workload; §7)"},
    {"payload-found-on-reread",
     "a stored first message a restore read missing was found on a re-read: it had been only temporarily invisible "
     "(§10)"},
    {"recovery-data-lost",
     "a restore found the stored first message permanently missing or other bytes and recorded DataLost in the row "
     "(§10)"},
    {"payload-damage-hit",
     "store-payload-damage lost or corrupted a stored payload as it was read again (fault; §10)"},
    {"route-cache-hit", "a regular message went to the owner a cached Ready location named (§7.3)"},
    {"route-cache-dropped",
     "a cached location went before its bound: its owner refused a message sent over it, or no reply came (§7.3)"},
    {"turn-refused-admission", "a queued message or due timer callback did not start: admission was closed (§5)"},
    {"timer-fired", "a timer callback started as a turn of its object (§5)"},
    {"instance-reincarnated",
     "a Close with Reincarnate made the Spot's next incarnation Ready on the same node (framework 0.27; §7.1)"},
    {"send-ran", "a Send (no reply route) a handler posted to another object ran as a turn of it (§9.3)"},
    {"removal-found-row-gone",
     "an owner's Delete of a hosted object failed and a re-read found its row gone (another removal applied): the "
     "instance was dropped, not reopened (§7.2)"},
    {"relocation-cancelled",
     "a relocation source reopened its queue, saved work and ingress hold in order, before relay-ready was accepted "
     "(§9.4)"},
    {"relocation-cutover-wait",
     "a relocation target changed the owner 1,000 ms after its relay-ready reply, without cutover (§1.3 step 6)"},
    {"relocation-late-relay",
     "a relayed message reached a relocation target whose dispatch had opened without cutover: queued as it came "
     "(§7.3)"},
    {"relocation-cutover-refused",
     "a relocation source's cutover submit was refused (its admission had closed); it did not reopen (§9.4, §10)"},
    {"relocation-target-failed",
     "a relocation target attempt ended without becoming owner: location_update_failed or another owner (§10)"},
    {"relocation-followed", "Message Follow forwarded a message that reached an object's previous owner (§7.3)"},
    {"relocation-timers-moved", "a relocation carried timer callbacks not yet run and the target armed them (§1.3)"},
    {"relocation-rejected",
     "a relocation policy refused a move before Capture: DisableRelocation, or a target without the type's policy "
     "(§2)"},
    {"relocation-state-restored", "PreserveStateWith: a relocation target restored the application state the source "
                                  "captured (§2)"},
    {"relocation-recreated", "RecreateOnRelocation: a relocation target restored a new instance without application "
                             "state (§2)"},
}};

constexpr bool every_mark_named() {
  for (const MarkInfo& mark : kMarks) {
    if (mark.name.empty() || mark.description.empty()) {
      return false;
    }
  }
  return true;
}
static_assert(every_mark_named(), "one {name, description} row per Mark, in enum order");

constexpr std::string_view to_string(Mark mark) { return kMarks[static_cast<std::size_t>(mark)].name; }

constexpr std::optional<Mark> parse_mark(std::string_view name) {
  for (std::size_t i = 0; i < kMarkCount; ++i) {
    if (kMarks[i].name == name) {
      return static_cast<Mark>(i);
    }
  }
  return std::nullopt;
}

// How often each mark fired, by Mark.
using MarkCounts = std::array<std::uint64_t, kMarkCount>;

}  // namespace spotcheck::platform
