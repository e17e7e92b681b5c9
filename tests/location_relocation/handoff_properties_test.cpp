// Properties of one handoff driven end to end (source_handoff.h, target_handoff.h): over random
// amounts of saved, held and temporary work, a cancellation or not, cutover delivered or lost,
// retryable CAS results and another owner, and random time steps, every piece of accepted work
// ends exactly once and in order — in the target's real queue (saved, relay, temporary) when the
// target became owner, back in the source's queue when the move was cancelled — the CAS never
// begins before cutover or 1,000 ms after relay-ready, and the source never reopens after it.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "impl/location/relocation/source_handoff.h"
#include "impl/location/relocation/target_handoff.h"

namespace spotcheck::location::relocation {
namespace {

using platform::millis;
using platform::TimeUs;

std::vector<HandoffWork> numbered(const std::string& prefix, int count) {
  std::vector<HandoffWork> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(HandoffWork{prefix + std::to_string(i), ""});
  }
  return out;
}

std::vector<HandoffWork> joined(std::vector<HandoffWork> a, const std::vector<HandoffWork>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

RC_GTEST_PROP(HandoffProperties, EveryAcceptedWorkEndsOnceAndInOrder, ()) {
  const auto saved = numbered("s", *rc::gen::inRange(0, 5));
  const auto ingress = numbered("i", *rc::gen::inRange(0, 6));
  const auto temporary = numbered("t", *rc::gen::inRange(0, 6));
  const auto held_before_capture = *rc::gen::inRange<std::size_t>(0, ingress.size() + 1);
  const bool cancel = *rc::gen::arbitrary<bool>();
  const bool cutover_delivered = *rc::gen::arbitrary<bool>();
  const int retryable = *rc::gen::inRange(0, 4);
  const bool other_owner = *rc::gen::arbitrary<bool>();
  const TimeUs step = millis(*rc::gen::inRange(1, 4'000));
  const RestoreBinding binding{RelocationId{1, 2}, TargetAttemptGeneration::of(3), SourceFence{"owner-s", 1, 1}};
  TimeUs now = millis(1'000);
  const TimeUs deadline = now + millis(20'000);

  SourceHandoff source(binding);
  TargetHandoff target(binding, deadline);
  std::size_t temporary_in = 0;
  auto some_temporary = [&](std::size_t count) {
    for (; count > 0 && temporary_in < temporary.size(); --count) {
      RC_ASSERT(target.hold_temporary(temporary[temporary_in++]));
    }
  };
  for (std::size_t i = 0; i < held_before_capture; ++i) {
    RC_ASSERT(source.hold_ingress(ingress[i]));
  }
  source.captured(saved);
  for (std::size_t i = held_before_capture; i < ingress.size(); ++i) {
    RC_ASSERT(source.hold_ingress(ingress[i]));
  }
  some_temporary(2);
  source.restore_sent();
  RC_ASSERT(!source.accepts_new_work());

  if (cancel) {  // §9.4: before relay-ready was accepted
    RC_ASSERT(source.cancel() == joined(saved, ingress));
    target.cancel();
    RC_ASSERT(source.accepts_new_work());
    RC_ASSERT(!target.dispatch_open());
    return;
  }

  target.restored(now, source.saved_work());
  const TimeUs relay_ready_at = now;
  const Handover handover = source.relay_ready_accepted();
  RC_ASSERT(handover.relay == ingress);
  for (const HandoffWork& work : handover.relay) {
    RC_ASSERT(target.relayed(work));
  }
  if (cutover_delivered) {
    target.cutover_received();
  }
  source.cutover_submitted(cutover_delivered);
  RC_ASSERT(!source.accepts_new_work());

  int retryable_left = retryable;
  for (int round = 0; round < 100'000 && !target.terminal() && target.stage() != TargetStage::kOwner; ++round) {
    some_temporary(1);
    if (target.may_begin_cas(now)) {
      RC_ASSERT(cutover_delivered || now >= relay_ready_at + kCutoverWaitUs);
      RC_ASSERT(now < deadline);
      target.begin_cas(now);
      now += step / 2;
      const CasResult result = retryable_left-- > 0 ? CasResult::kRetryable
                               : other_owner        ? CasResult::kOtherOwner
                                                    : CasResult::kApplied;
      target.cas_result(result, now);
    }
    now += step;
  }
  RC_ASSERT(!source.accepts_new_work());
  if (target.stage() == TargetStage::kOwner) {
    some_temporary(temporary.size());
    const std::vector<HandoffWork> queue = target.open_dispatch();
    RC_ASSERT(queue == joined(joined(saved, ingress), temporary));
    RC_ASSERT(target.dispatch_open());
  } else {
    RC_ASSERT(target.terminal());
    RC_ASSERT(!target.failure().empty());
    RC_ASSERT(!target.dispatch_open());
    RC_ASSERT(other_owner || now >= deadline);
  }
}

}  // namespace
}  // namespace spotcheck::location::relocation
