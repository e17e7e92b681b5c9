#include "impl/location/relocation/target_handoff.h"

#include <array>
#include <utility>

#include "impl/check/check.h"

namespace spotcheck::location::relocation {

const char* to_string(TargetStage stage) {
  switch (stage) {
    case TargetStage::kAssembling:
      return "assembling";
    case TargetStage::kRelayReady:
      return "relay_ready";
    case TargetStage::kCasInFlight:
      return "cas_in_flight";
    case TargetStage::kOwner:
      return "owner";
    case TargetStage::kReady:
      return "ready";
    case TargetStage::kFailed:
      return "failed";
    case TargetStage::kCancelled:
      return "cancelled";
  }
  return "?";
}

TargetHandoff::TargetHandoff(RestoreBinding binding, platform::TimeUs restore_deadline_us,
                             planted::PlantedBugs planted)
    : _binding(std::move(binding)), _restore_deadline_us(restore_deadline_us), _planted(planted) {
  SPOTCHECK_ASSERT(!_binding.relocation.empty());
  SPOTCHECK_ASSERT(!_binding.fence.owner_id.empty());
}

bool TargetHandoff::hold_temporary(HandoffWork work) {
  if (terminal() || _stage == TargetStage::kReady) {
    return false;
  }
  _temporary.push_back(std::move(work));
  return true;
}

void TargetHandoff::restored(platform::TimeUs now_us, std::vector<HandoffWork> saved_work) {
  SPOTCHECK_ASSERT(_stage == TargetStage::kAssembling);
  SPOTCHECK_ASSERT(!_relay_ready_at_us.has_value());
  _saved = std::move(saved_work);
  _relay_ready_at_us = now_us;
  _stage = TargetStage::kRelayReady;
}

void TargetHandoff::payload_failed() {
  SPOTCHECK_ASSERT(_stage == TargetStage::kAssembling);
  fail("payload");
}

bool TargetHandoff::relayed(HandoffWork work) {
  if (terminal() || _stage == TargetStage::kReady) {
    return false;  // gone, or the real queue is open: the caller queues it as usual
  }
  // The relay travels after relay-ready and before cutover on the same ordered connection (the
  // target may have become owner meanwhile: 1,000 ms passed without cutover). Anything else is a
  // command out of order (the network's input is untrusted): refused.
  if (!_relay_ready_at_us.has_value() || _cutover) {
    return false;
  }
  _relay.push_back(std::move(work));
  return true;
}

void TargetHandoff::cutover_received() {
  if (terminal() || _cutover || !_relay_ready_at_us.has_value()) {
    return;  // after the attempt ended, repeated, or before relay-ready went out: nothing changes
  }
  _cutover = true;
}

bool TargetHandoff::may_begin_cas(platform::TimeUs now_us) {
  if (_stage != TargetStage::kRelayReady) {
    return false;
  }
  if (now_us >= _restore_deadline_us) {
    fail("location_update_failed");
    return false;
  }
  if (SPOTCHECK_PLANTED(_planted, kCasBeforeCutover)) {
    return true;  // planted bug: the CAS goes right after relay-ready, before cutover or the wait
  }
  return _cutover || now_us >= *_relay_ready_at_us + kCutoverWaitUs;
}

platform::TimeUs TargetHandoff::cutover_wait_ends_us() const {
  SPOTCHECK_ASSERT(_relay_ready_at_us.has_value());
  return *_relay_ready_at_us + kCutoverWaitUs;
}

void TargetHandoff::begin_cas(platform::TimeUs now_us) {
  SPOTCHECK_ASSERT(_stage == TargetStage::kRelayReady);
  SPOTCHECK_ASSERT(now_us < _restore_deadline_us);
  // §8: the prepared target alone changes the owner, and only after cutover or the wait.
  SPOTCHECK_ASSERT(_cutover || now_us >= *_relay_ready_at_us + kCutoverWaitUs ||
                   SPOTCHECK_PLANTED(_planted, kCasBeforeCutover));
  _stage = TargetStage::kCasInFlight;
}

void TargetHandoff::cas_result(CasResult result, platform::TimeUs now_us) {
  if (_stage != TargetStage::kCasInFlight) {
    return;  // a late reply for a terminal attempt never reactivates it
  }
  switch (result) {
    case CasResult::kApplied:
      _stage = TargetStage::kOwner;
      return;
    case CasResult::kOtherOwner:
      fail("other_owner");
      return;
    case CasResult::kRetryable:
      if (now_us >= _restore_deadline_us) {
        fail("location_update_failed");
      } else {
        _stage = TargetStage::kRelayReady;  // read and CAS again with the same binding (§10)
      }
      return;
  }
}

std::vector<HandoffWork> TargetHandoff::open_dispatch() {
  SPOTCHECK_ASSERT(_stage == TargetStage::kOwner);
  std::vector<HandoffWork> queue;
  queue.reserve(_saved.size() + _relay.size() + _temporary.size());
  const bool saved_last = SPOTCHECK_PLANTED(_planted, kSavedWorkAfterTemporary);  // planted bug
  for (std::vector<HandoffWork>* part : saved_last ? std::array{&_relay, &_temporary, &_saved}
                                                   : std::array{&_saved, &_relay, &_temporary}) {
    for (HandoffWork& work : *part) {
      queue.push_back(std::move(work));
    }
    part->clear();
  }
  _stage = TargetStage::kReady;
  return queue;
}

std::vector<HandoffWork> TargetHandoff::cancel() {
  SPOTCHECK_ASSERT(_stage == TargetStage::kAssembling || _stage == TargetStage::kRelayReady);
  SPOTCHECK_ASSERT(!_cutover);  // after relay-ready was accepted the source never cancels
  std::vector<HandoffWork> discarded = std::move(_temporary);
  _temporary.clear();
  _saved.clear();
  _relay.clear();
  _stage = TargetStage::kCancelled;
  return discarded;
}

void TargetHandoff::fail(const char* why) {
  SPOTCHECK_ASSERT(!terminal());
  SPOTCHECK_ASSERT(_stage != TargetStage::kOwner && _stage != TargetStage::kReady);
  _failure = why;
  _stage = TargetStage::kFailed;  // its work waits for take_saved / take_held; nothing runs it
}

std::vector<HandoffWork> TargetHandoff::take_saved() {
  SPOTCHECK_ASSERT(_stage == TargetStage::kFailed);
  return std::exchange(_saved, {});
}

std::vector<HandoffWork> TargetHandoff::take_held() {
  SPOTCHECK_ASSERT(_stage == TargetStage::kFailed);
  std::vector<HandoffWork> held = std::exchange(_relay, {});
  for (HandoffWork& work : _temporary) {
    held.push_back(std::move(work));
  }
  _temporary.clear();
  return held;
}

}  // namespace spotcheck::location::relocation
