// The target's side of one relocation attempt (spec §1.3 steps 5–7, §8, §9.1, §9.2, §10): a state
// machine with no I/O. The target runtime tells it what happened and asks it what it may do.
//
//   kAssembling    the relocation temporary queue is registered first: work that arrives for the
//                  object is held there, never run; the payload is being assembled.
//   kRelayReady    the payload was verified and restored into an instance not yet exposed; the
//                  relay-ready reply went out. The source's pre-cutover relay arrives on the same
//                  ordered connection, then cutover.
//   kCasInFlight   the owner CAS is with the store. It may begin only after cutover, or 1,000 ms
//                  after relay-ready, and before the Restore deadline (§8: only the prepared target
//                  changes the owner; §10: an unknown or retryable result is read and CASed again
//                  with the same binding until that deadline).
//   kOwner         the CAS applied: the target is owner. Dispatch stays closed.
//   kReady         saved work, pre-cutover relay and the remaining temporary work entered the real
//                  queue in that order, the regular route replaced the temporary one, and dispatch
//                  opened (§9.2).
//   kFailed        terminal: the CAS met another owner or generation, or the Restore deadline
//                  passed first (location_update_failed), or the payload failed; the prepared
//                  instance, the temporary queue and the state go (take_saved, take_held), no
//                  dispatch opens. A late store reply for a terminal attempt never reactivates it.
//   kCancelled     terminal: cancelled before relay-ready was accepted (§9.4); the temporary queue's
//                  work is discarded without running it (the source runs it again).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/location/relocation/relocation_ids.h"
#include "impl/planted/planted_bugs.h"
#include "impl/platform/time.h"

namespace spotcheck::location::relocation {

// One piece of accepted, not yet run work of the object (a message or a timer callback), as the
// handoff carries it. The OperationId tells it apart; nothing here looks inside.
struct HandoffWork {
  std::string op_id;
  std::string bytes;
  friend bool operator==(const HandoffWork&, const HandoffWork&) = default;
};

// After relay-ready, how long the target waits for cutover before it may CAS on its own (§1.3).
inline constexpr platform::TimeUs kCutoverWaitUs = platform::millis(1'000);

enum class TargetStage { kAssembling, kRelayReady, kCasInFlight, kOwner, kReady, kFailed, kCancelled };
const char* to_string(TargetStage stage);

enum class CasResult {
  kApplied,        // this target is owner (AuthorityOwnerGeneration + 1, ObjectGeneration kept)
  kRetryable,      // no reply, or a retryable store failure: read and CAS again, same binding (§10)
  kOtherOwner,     // another valid owner or generation: the stale relocation ends at once
};

class TargetHandoff {
 public:
  // `planted` (empty in production): kCasBeforeCutover, kSavedWorkAfterTemporary are read here.
  TargetHandoff(RestoreBinding binding, platform::TimeUs restore_deadline_us, planted::PlantedBugs planted = {});

  const RestoreBinding& binding() const { return _binding; }
  TargetStage stage() const { return _stage; }
  platform::TimeUs restore_deadline_us() const { return _restore_deadline_us; }
  bool terminal() const { return _stage == TargetStage::kFailed || _stage == TargetStage::kCancelled; }
  bool dispatch_open() const { return _stage == TargetStage::kReady; }
  // Why a failed attempt failed ("" otherwise): "location_update_failed", "other_owner", "payload".
  const std::string& failure() const { return _failure; }

  // Work that arrives for the object through the temporary registration (before the regular route
  // replaces it): held, never run before dispatch opens. False once the attempt is terminal or the
  // regular route is in place (the caller routes it as usual then).
  bool hold_temporary(HandoffWork work);
  // The payload was verified and restored into an unexposed instance holding `saved_work` (the
  // source's accepted, not yet run work, in its order): relay-ready goes out now.
  void restored(platform::TimeUs now_us, std::vector<HandoffWork> saved_work);
  // The payload failed (a checksum mismatch, a conflict): an explicit failure, no retry (§9.1).
  void payload_failed();
  // The source's ingress hold relayed before cutover, on the same ordered connection: kept for the
  // real queue after the saved work. False once terminal or dispatch is open (queued as usual then).
  bool relayed(HandoffWork work);
  void cutover_received();
  bool cutover() const { return _cutover; }

  // Whether the owner CAS may begin now: relay-ready sent, cutover received or kCutoverWaitUs
  // passed since, and the Restore deadline not passed. Past the deadline the attempt fails
  // (location_update_failed) and this is false.
  bool may_begin_cas(platform::TimeUs now_us);
  // When the wait for cutover ends on its own (relay-ready + kCutoverWaitUs); only once restored.
  platform::TimeUs cutover_wait_ends_us() const;
  void begin_cas(platform::TimeUs now_us);
  // The store's answer to the CAS in flight; a reply for an attempt no longer in flight (terminal,
  // or already owner) changes nothing.
  void cas_result(CasResult result, platform::TimeUs now_us);

  // Only as owner: the real queue in its order — saved work, pre-cutover relay, remaining
  // temporary work — with the regular route in place of the temporary one; dispatch opens.
  std::vector<HandoffWork> open_dispatch();

  // Once failed: the work it held, taken out (each once) for the runtime to dispose of — the saved
  // work (the source's), and the pre-cutover relay and temporary work (held here only).
  std::vector<HandoffWork> take_saved();
  std::vector<HandoffWork> take_held();

  // §9.4, before relay-ready was accepted (kAssembling, or kRelayReady while the source has not
  // taken it): the temporary queue's work is discarded without running; returns it (for counts).
  std::vector<HandoffWork> cancel();

 private:
  void fail(const char* why);

  RestoreBinding _binding;
  platform::TimeUs _restore_deadline_us;
  planted::PlantedBugs _planted;
  TargetStage _stage = TargetStage::kAssembling;
  std::optional<platform::TimeUs> _relay_ready_at_us;
  bool _cutover = false;
  std::string _failure;
  std::vector<HandoffWork> _saved;
  std::vector<HandoffWork> _relay;
  std::vector<HandoffWork> _temporary;
};

}  // namespace spotcheck::location::relocation
