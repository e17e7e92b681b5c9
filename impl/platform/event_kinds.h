// Every event kind of a trace, each defined once, here: the Location runtime's (impl/location),
// the harness's (workloads, scenarios, the fault injector) and the simulator's. docs/events.md,
// docs/properties.md and docs/simulator.md document the fields. A kind is a string literal: the
// trace stores and hashes its text. kAll lists them for tests (unique, and every kind a
// trace holds is one of them).
#pragma once

#include <array>
#include <string_view>

namespace spotcheck::kinds {
// ==== the Location runtime (impl/location), docs/events.md ======================================
// Owner lease and admission (§3.1, §5).
inline constexpr std::string_view kLeaseRegistered = "lease.registered";
inline constexpr std::string_view kLeaseRegisterFailed = "lease.register_failed";
inline constexpr std::string_view kLeaseStartupChecked = "lease.startup_checked";
inline constexpr std::string_view kLeaseRenewed = "lease.renewed";
inline constexpr std::string_view kLeaseRenewFailed = "lease.renew_failed";
inline constexpr std::string_view kLeaseLost = "lease.lost";
inline constexpr std::string_view kLeaseAdmissionClosed = "lease.admission_closed";
inline constexpr std::string_view kLeaseAdmissionReopened = "lease.admission_reopened";
inline constexpr std::string_view kAdmissionRefused = "admission.refused";

// Generations (§3.2).
inline constexpr std::string_view kGenerationExhausted = "generation.exhausted";

// Authority operations (§6.1, §11).
inline constexpr std::string_view kAuthorityReserve = "authority.reserve";
inline constexpr std::string_view kAuthorityCommit = "authority.commit";
inline constexpr std::string_view kAuthorityAbort = "authority.abort";
inline constexpr std::string_view kAuthorityPreserve = "authority.preserve";
inline constexpr std::string_view kAuthorityNewOwner = "authority.new_owner";
inline constexpr std::string_view kAuthorityDelete = "authority.delete";
inline constexpr std::string_view kCapacityChanged = "capacity.changed";
inline constexpr std::string_view kCapacityRefused = "capacity.refused";
inline constexpr std::string_view kStoreIndeterminate = "store.indeterminate";

// Descriptors and placement (§4).
inline constexpr std::string_view kDescriptorPublished = "descriptor.published";
inline constexpr std::string_view kDescriptorListRead = "descriptor.list_read";
inline constexpr std::string_view kPlacementChosen = "placement.chosen";
inline constexpr std::string_view kPlacementNoCandidate = "placement.no_candidate";

// Shutdown cleanup (§11).
inline constexpr std::string_view kSweepFinished = "sweep.finished";

// Creation, find and close (§7, commands 47/48/49/20).
// Source (the node whose Manager was called).
inline constexpr std::string_view kCreationRequested = "creation.requested";
inline constexpr std::string_view kCreationCommandSent = "creation.command_sent";
inline constexpr std::string_view kCreationReplyDelivered = "creation.reply_delivered";
inline constexpr std::string_view kCreationResultReread = "creation.result_reread";
inline constexpr std::string_view kCreationAbandonedCancelled = "creation.abandoned_cancelled";
inline constexpr std::string_view kCreationFinished = "creation.finished";

// Target (the node the Creating row was reserved on).
inline constexpr std::string_view kCreationCommandReceived = "creation.command_received";
inline constexpr std::string_view kCreationVerifyFailed = "creation.verify_failed";
inline constexpr std::string_view kCreationFactoryRun = "creation.factory_run";
inline constexpr std::string_view kCreationFactoryReturned = "creation.factory_returned";
inline constexpr std::string_view kCreationResult = "creation.result";
inline constexpr std::string_view kCreationReplySent = "creation.reply_sent";

// Find / Destroy / Close (§7).
inline constexpr std::string_view kFindResult = "find.result";
inline constexpr std::string_view kCloseRequested = "close.requested";
inline constexpr std::string_view kCloseResult = "close.result";
inline constexpr std::string_view kCloseReplyDelivered = "close.reply_delivered";
inline constexpr std::string_view kCloseFinished = "close.finished";

// Final results (§7 "Stored final result").
inline constexpr std::string_view kCreationResultExpired = "creation.result_expired";

// Instance Spot cold activation (§7.1, commands 50/51).
// Source.
inline constexpr std::string_view kInstanceRequestSent = "instance.request_sent";
inline constexpr std::string_view kInstanceTypeSelected = "instance.type_selected";
inline constexpr std::string_view kInstanceRouted = "instance.routed";
// The one authority read after an owner-fence refusal (0.27), or each re-read of the planted
// 0.26 retry loop.
inline constexpr std::string_view kInstanceAuthorityRead = "instance.authority_read";
// The planted 0.26 bug resubmits the same OperationId after an error that may follow admission.
inline constexpr std::string_view kInstanceResubmitted = "instance.resubmitted";
// The request's answer was handed to the caller: at most once per (source, OperationId).
inline constexpr std::string_view kInstanceReplyDelivered = "instance.reply_delivered";
// Target.
inline constexpr std::string_view kInstanceRequestReceived = "instance.request_received";
inline constexpr std::string_view kInstancePayloadStored = "instance.payload_stored";
inline constexpr std::string_view kInstanceReserved = "instance.reserved";
inline constexpr std::string_view kInstanceReserveLost = "instance.reserve_lost";
inline constexpr std::string_view kInstanceFactoryRun = "instance.factory_run";
inline constexpr std::string_view kInstanceReady = "instance.ready";
inline constexpr std::string_view kInstanceFirstMessageRun = "instance.first_message_run";
inline constexpr std::string_view kInstanceMessageRun = "instance.message_run";
inline constexpr std::string_view kInstanceEndOfUseRecorded = "instance.end_of_use_recorded";
inline constexpr std::string_view kInstancePayloadReleased = "instance.payload_released";
// §10: a restore found the stored first message permanently missing or other bytes (DataLost).
inline constexpr std::string_view kInstanceDataLost = "instance.data_lost";
inline constexpr std::string_view kInstanceOutcome = "instance.outcome";
// Close without Reincarnate ended this incarnation (the row is deleted, the instance dropped).
inline constexpr std::string_view kInstanceClosing = "instance.closing";
inline constexpr std::string_view kInstanceClosed = "instance.closed";
// Close with Reincarnate: the incarnation closed; the next one is asked for with `op_id`.
inline constexpr std::string_view kInstanceReincarnating = "instance.reincarnating";
// A new activation met an incarnation of the same Spot still closing in this host run (its
// Close's Delete applied, the Close not yet ended): it waits for that local Close to end.
inline constexpr std::string_view kInstanceCloseAwaited = "instance.close_awaited";
// A restarted node dealt with an Instance Spot row an earlier host run of it left (§7.1).
inline constexpr std::string_view kInstanceRecovered = "instance.recovered";

// The Dispatcher (impl/location/messaging).
inline constexpr std::string_view kMessagingUndecodable = "messaging.undecodable";
inline constexpr std::string_view kMessagingLateReply = "messaging.late_reply";

// The object runtime (impl/location/objects): hosted instances, their turns, regular messages and
// the location cache (§5, §7.1, §7.3).
inline constexpr std::string_view kObjectActivated = "object.activated";
inline constexpr std::string_view kObjectDeactivated = "object.deactivated";
inline constexpr std::string_view kObjectTurn = "object.turn";
inline constexpr std::string_view kObjectTurnRefused = "object.turn_refused";
inline constexpr std::string_view kObjectTimerStarted = "object.timer_started";
inline constexpr std::string_view kObjectMessageRefused = "object.message_refused";
inline constexpr std::string_view kObjectMessageSent = "object.message_sent";
inline constexpr std::string_view kObjectMessageAnswered = "object.message_answered";
inline constexpr std::string_view kCacheFilled = "cache.filled";
inline constexpr std::string_view kCacheHit = "cache.hit";
inline constexpr std::string_view kCacheDropped = "cache.dropped";

// Relocation of one object (impl/location/relocation, §1.3, §8, §9, §7.3 Message Follow).
inline constexpr std::string_view kRelocationRejected = "relocation.rejected";
inline constexpr std::string_view kRelocationStarted = "relocation.started";
inline constexpr std::string_view kRelocationCaptured = "relocation.captured";
inline constexpr std::string_view kRelocationRelayReady = "relocation.relay_ready";
inline constexpr std::string_view kRelocationHandedOver = "relocation.handed_over";
inline constexpr std::string_view kRelocationCancelled = "relocation.cancelled";
inline constexpr std::string_view kRelocationReady = "relocation.ready";
inline constexpr std::string_view kRelocationFailed = "relocation.failed";
inline constexpr std::string_view kRelocationMessageMoved = "relocation.message_moved";
inline constexpr std::string_view kRelocationWorkReturned = "relocation.work_returned";
inline constexpr std::string_view kRelocationMessageLate = "relocation.message_late";

// ==== the harness: workloads (scenarios/), the fault injector (faults/), docs/properties.md ====
// ---- emitted by a workload (scenario code, on the node) ----------------------------------------
// A request began: {owner, request (number, unique per host run), deadline_us (the node's local
// clock), optional now_us (local time at the start), optional id}.
inline constexpr std::string_view kRequestStart = "request.start";
// A request ended with a typed outcome: {owner, request, outcome (non-empty text), optional late
// (0/1: the node saw its local clock past deadline_us), optional now_us}.
inline constexpr std::string_view kRequestEnd = "request.end";
// The node ran an object's handler as its owner, right after its admission check passed:
// {id, owner, lease_gen, object_gen, owner_gen, optional kind (actor|spot, default actor),
//  optional now_us and deadline_us (the node's local time and admission deadline)}.
inline constexpr std::string_view kObjectWork = "object.work";

// The host run's owner lease was lost for good; the node asks its supervisor to restart it: {owner}.
inline constexpr std::string_view kNodeGaveUp = "node.gave_up";

// ---- recorded by the scenario on the world (node = kWorldNode) ---------------------------------
// Every fault has healed and none starts again: the liveness phase begins. No fields.
inline constexpr std::string_view kFaultsStopped = "faults.stopped";

inline constexpr std::string_view kFaultsPlan = "faults.plan";  // {stop_us}: the fault plan drawn for the run

// ---- the synthetic scenario's nodes (scenarios/synthetic), checked by its FIFO checker ---------
inline constexpr std::string_view kSyntheticBoot = "synthetic.boot";    // {nonce}
inline constexpr std::string_view kSyntheticReply = "synthetic.reply";
inline constexpr std::string_view kSyntheticRecv = "synthetic.recv";    // {from, nonce, seq, kind}
inline constexpr std::string_view kSyntheticTick = "synthetic.tick";    // {tick}

// ==== the simulator: processes (sim/kernel), docs/simulator.md ==================================
// {routing_id, drift_ppm}: a simulated process joins the world.
inline constexpr std::string_view kProcessAdd = "process.add";
inline constexpr std::string_view kProcessStart = "start";  // {run}: a new host run begins
inline constexpr std::string_view kProcessStartIgnored = "start.ignored";
inline constexpr std::string_view kProcessKill = "kill";  // {run}: every fiber unwound
// {run, point}: the host run died at a named point of its own code (a crash-point fault), then kill
inline constexpr std::string_view kProcessCrash = "crash";
inline constexpr std::string_view kProcessKillIgnored = "kill.ignored";
inline constexpr std::string_view kProcessExit = "exit";  // {run}: main returned
inline constexpr std::string_view kProcessPause = "pause";
inline constexpr std::string_view kProcessPauseIgnored = "pause.ignored";
inline constexpr std::string_view kProcessUnpause = "unpause";  // {frozen}
inline constexpr std::string_view kClockDrift = "clock.drift";  // {drift_ppm}
inline constexpr std::string_view kClockStepped = "clock.stepped";  // {by_us}: out of contract

// ==== the simulator: tasks and the scheduler (sim/kernel) =======================================
inline constexpr std::string_view kSpawn = "spawn";  // {new_task, name}
inline constexpr std::string_view kSpawnRefused = "spawn.refused";  // {name}
inline constexpr std::string_view kTaskStart = "task.start";
inline constexpr std::string_view kTaskEnd = "task.end";
inline constexpr std::string_view kTaskFrozen = "task.frozen";
inline constexpr std::string_view kWakeTimer = "wake.timer";
inline constexpr std::string_view kWakeGate = "wake.gate";
inline constexpr std::string_view kWakeGateGone = "wake.gate_gone";
inline constexpr std::string_view kWakeMessage = "wake.message";
inline constexpr std::string_view kWakeYield = "wake.yield";
inline constexpr std::string_view kWakeKilled = "wake.killed";
inline constexpr std::string_view kWakeUnknown = "wake.unknown";
inline constexpr std::string_view kAction = "action";  // {action}: a scheduled world action ran
inline constexpr std::string_view kViolation = "violation";  // {what, event}: a property checker objected to event #event
inline constexpr std::string_view kFailure = "failure";  // {what, ...}: the run itself broke (sim/kernel)

// ==== the simulator: the network (sim/kernel/network) =================================================
inline constexpr std::string_view kNetLink = "net.link";
inline constexpr std::string_view kNetPartition = "net.partition";
inline constexpr std::string_view kNetStall = "net.stall";  // {from, to, until_us}
inline constexpr std::string_view kNetHeal = "net.heal";
inline constexpr std::string_view kNetHealAll = "net.heal_all";
inline constexpr std::string_view kNetDisconnect = "net.disconnect";
inline constexpr std::string_view kNetReconnect = "net.reconnect";
inline constexpr std::string_view kNetDrop = "net.drop";
inline constexpr std::string_view kNetPost = "net.post";
inline constexpr std::string_view kNetSend = "net.send";
inline constexpr std::string_view kNetDeferred = "net.deferred";
inline constexpr std::string_view kNetDeliver = "net.deliver";

// ==== the simulator: the store host (sim/store_host) ============================================
inline constexpr std::string_view kStoreOutageBegin = "store.outage_begin";
inline constexpr std::string_view kStoreOutageEnd = "store.outage_end";
inline constexpr std::string_view kStoreRequestLost = "store.request_lost";  // {node, op}
inline constexpr std::string_view kStoreReplyLost = "store.reply_lost";  // {node, op}
inline constexpr std::string_view kStoreReplyDelayed = "store.reply_delayed";
inline constexpr std::string_view kStoreRefused = "store.refused";  // {node, op}
inline constexpr std::string_view kStoreWriteHeld = "store.write_held";
inline constexpr std::string_view kStoreWriteLate = "store.write_late";  // held past the caller's deadline
inline constexpr std::string_view kStorePausedCaller = "store.paused_caller";  // node-pause-on-reply
inline constexpr std::string_view kStoreFrozeCaller = "store.froze_caller";    // node-freeze-drop
inline constexpr std::string_view kStoreScanExpired = "store.scan_expired";    // store-scan-expired {node, op}
inline constexpr std::string_view kStoreStallBegin = "store.stall_begin";
inline constexpr std::string_view kStoreStallEnd = "store.stall_end";  // {queued}
inline constexpr std::string_view kStoreStalled = "store.stalled";     // {node, op}: queued by a stall
inline constexpr std::string_view kStoreApplied = "store.applied";     // the ground truth of a write
inline constexpr std::string_view kStorePayloadApplied = "store.payload_applied";  // ... of a payload put/remove
// store-payload-damage: a stored payload read again turned invisible for a while, lost or corrupted.
inline constexpr std::string_view kStorePayloadDamaged = "store.payload_damaged";
// Out of contract (faults/out_of_contract.h): the store's clock jumped, acknowledged writes were lost.
inline constexpr std::string_view kStoreClockJumped = "store.clock_jumped";  // {server, by_ms}
inline constexpr std::string_view kStoreWritesLost = "store.writes_lost";    // {server, writes, since_us}
inline constexpr std::string_view kStoreWriteLost = "store.write_lost";      // {key, lost_version, restored_version}

inline constexpr std::array kAll = {
    kLeaseRegistered,
    kLeaseRegisterFailed,
    kLeaseStartupChecked,
    kLeaseRenewed,
    kLeaseRenewFailed,
    kLeaseLost,
    kLeaseAdmissionClosed,
    kLeaseAdmissionReopened,
    kAdmissionRefused,
    kGenerationExhausted,
    kAuthorityReserve,
    kAuthorityCommit,
    kAuthorityAbort,
    kAuthorityPreserve,
    kAuthorityNewOwner,
    kAuthorityDelete,
    kCapacityChanged,
    kCapacityRefused,
    kStoreIndeterminate,
    kDescriptorPublished,
    kDescriptorListRead,
    kPlacementChosen,
    kPlacementNoCandidate,
    kSweepFinished,
    kCreationRequested,
    kCreationCommandSent,
    kCreationReplyDelivered,
    kCreationResultReread,
    kCreationAbandonedCancelled,
    kCreationFinished,
    kCreationCommandReceived,
    kCreationVerifyFailed,
    kCreationFactoryRun,
    kCreationFactoryReturned,
    kCreationResult,
    kCreationReplySent,
    kFindResult,
    kCloseRequested,
    kCloseResult,
    kCloseReplyDelivered,
    kCloseFinished,
    kCreationResultExpired,
    kInstanceRequestSent,
    kInstanceTypeSelected,
    kInstanceRouted,
    kInstanceAuthorityRead,
    kInstanceResubmitted,
    kInstanceReplyDelivered,
    kInstanceRequestReceived,
    kInstancePayloadStored,
    kInstanceReserved,
    kInstanceReserveLost,
    kInstanceFactoryRun,
    kInstanceReady,
    kInstanceFirstMessageRun,
    kInstanceMessageRun,
    kInstanceEndOfUseRecorded,
    kInstancePayloadReleased,
    kInstanceDataLost,
    kInstanceOutcome,
    kInstanceClosing,
    kInstanceClosed,
    kInstanceReincarnating,
    kInstanceCloseAwaited,
    kInstanceRecovered,
    kMessagingUndecodable,
    kMessagingLateReply,
    kObjectActivated,
    kObjectDeactivated,
    kObjectTurn,
    kObjectTurnRefused,
    kObjectTimerStarted,
    kObjectMessageRefused,
    kObjectMessageSent,
    kObjectMessageAnswered,
    kCacheFilled,
    kCacheHit,
    kCacheDropped,
    kRelocationRejected,
    kRelocationStarted,
    kRelocationCaptured,
    kRelocationRelayReady,
    kRelocationHandedOver,
    kRelocationCancelled,
    kRelocationReady,
    kRelocationFailed,
    kRelocationMessageMoved,
    kRelocationWorkReturned,
    kRelocationMessageLate,
    kRequestStart,
    kRequestEnd,
    kObjectWork,
    kNodeGaveUp,
    kFaultsStopped,
    kFaultsPlan,
    kProcessAdd,
    kProcessStart,
    kProcessStartIgnored,
    kProcessKill,
    kProcessCrash,
    kProcessKillIgnored,
    kProcessExit,
    kProcessPause,
    kProcessPauseIgnored,
    kProcessUnpause,
    kClockDrift,
    kClockStepped,
    kSpawn,
    kSpawnRefused,
    kTaskStart,
    kTaskEnd,
    kTaskFrozen,
    kWakeTimer,
    kWakeGate,
    kWakeGateGone,
    kWakeMessage,
    kWakeYield,
    kWakeKilled,
    kWakeUnknown,
    kAction,
    kViolation,
    kFailure,
    kNetLink,
    kNetPartition,
    kNetStall,
    kNetHeal,
    kNetHealAll,
    kNetDisconnect,
    kNetReconnect,
    kNetDrop,
    kNetPost,
    kNetSend,
    kNetDeferred,
    kNetDeliver,
    kStoreOutageBegin,
    kStoreOutageEnd,
    kStoreRequestLost,
    kStoreReplyLost,
    kStoreReplyDelayed,
    kStoreRefused,
    kStoreWriteHeld,
    kStoreWriteLate,
    kStorePausedCaller,
    kStoreFrozeCaller,
    kStoreScanExpired,
    kStoreStallBegin,
    kStoreStallEnd,
    kStoreStalled,
    kStoreApplied,
    kStorePayloadApplied,
    kStorePayloadDamaged,
    kStoreClockJumped,
    kStoreWritesLost,
    kStoreWriteLost,
    kSyntheticBoot,
    kSyntheticReply,
    kSyntheticRecv,
    kSyntheticTick,
};

}  // namespace spotcheck::kinds
