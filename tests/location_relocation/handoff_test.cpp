// The handoff's two sides (impl/location/relocation/source_handoff.h, target_handoff.h; spec §1.3,
// §8, §9.1, §9.2, §9.4, §10): the target's CAS waits for cutover or 1,000 ms and the Restore
// deadline bounds it; the real queue is saved work, pre-cutover relay, temporary work in that
// order; a cancellation before relay-ready restores the source's queue in order; after relay-ready
// the source never reopens; a late store reply never revives a terminal attempt.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "impl/check/check.h"
#include "impl/location/relocation/source_handoff.h"
#include "impl/location/relocation/target_handoff.h"

namespace spotcheck::location::relocation {
namespace {

using platform::millis;
using platform::TimeUs;

constexpr TimeUs kRelayReadyAt = millis(5'000);
constexpr TimeUs kDeadline = millis(20'000);

RestoreBinding handoff_binding(std::uint64_t attempt = 7) {
  return RestoreBinding{RelocationId{0xabc, 0x1}, TargetAttemptGeneration::of(attempt), SourceFence{"owner-s", 2, 4}};
}

HandoffWork work(const std::string& op) { return HandoffWork{op, "payload of " + op}; }

std::vector<std::string> ops(const std::vector<HandoffWork>& queue) {
  std::vector<std::string> out;
  for (const HandoffWork& w : queue) {
    out.push_back(w.op_id);
  }
  return out;
}

// A target that restored `saved` at kRelayReadyAt.
TargetHandoff restored_target(std::vector<HandoffWork> saved = {}) {
  TargetHandoff target(handoff_binding(), kDeadline);
  target.restored(kRelayReadyAt, std::move(saved));
  return target;
}

TEST(TargetHandoff, TheCasWaitsForCutoverOrAThousandMillisecondsAfterRelayReady) {
  TargetHandoff target(handoff_binding(), kDeadline);
  EXPECT_FALSE(target.may_begin_cas(kRelayReadyAt)) << "nothing restored yet";
  target.restored(kRelayReadyAt, {});
  EXPECT_EQ(target.stage(), TargetStage::kRelayReady);
  EXPECT_FALSE(target.may_begin_cas(kRelayReadyAt));
  EXPECT_FALSE(target.may_begin_cas(kRelayReadyAt + kCutoverWaitUs - 1));
  EXPECT_TRUE(target.may_begin_cas(kRelayReadyAt + kCutoverWaitUs));

  TargetHandoff cut = restored_target();
  cut.cutover_received();
  EXPECT_TRUE(cut.may_begin_cas(kRelayReadyAt + 1)) << "cutover: at once";
}

TEST(TargetHandoff, BeginningTheCasEarlyIsAnInvariantFailure) {
  check::ScopedAssertionHandler throwing(&check::throw_invariant_violation);
  TargetHandoff target = restored_target();
  EXPECT_THROW(target.begin_cas(kRelayReadyAt + millis(999)), check::InvariantViolation);
}

TEST(TargetHandoff, TheRealQueueIsSavedWorkThenThePreCutoverRelayThenTheTemporaryWork) {
  TargetHandoff target(handoff_binding(), kDeadline);
  EXPECT_TRUE(target.hold_temporary(work("t1")));  // the temporary queue is registered first
  target.restored(kRelayReadyAt, {work("s1"), work("s2")});
  EXPECT_TRUE(target.relayed(work("r1")));
  EXPECT_TRUE(target.hold_temporary(work("t2")));
  EXPECT_TRUE(target.relayed(work("r2")));
  target.cutover_received();
  ASSERT_TRUE(target.may_begin_cas(kRelayReadyAt + 10));
  target.begin_cas(kRelayReadyAt + 10);
  EXPECT_TRUE(target.hold_temporary(work("t3"))) << "dispatch is still closed";
  target.cas_result(CasResult::kApplied, kRelayReadyAt + 20);
  EXPECT_EQ(target.stage(), TargetStage::kOwner);
  EXPECT_FALSE(target.dispatch_open());
  EXPECT_TRUE(target.hold_temporary(work("t4")));
  EXPECT_EQ(ops(target.open_dispatch()), (std::vector<std::string>{"s1", "s2", "r1", "r2", "t1", "t2", "t3", "t4"}));
  EXPECT_TRUE(target.dispatch_open());
  EXPECT_FALSE(target.hold_temporary(work("t5"))) << "the regular route is in place";
}

TEST(TargetHandoff, ARetryableResultIsCasedAgainUntilTheRestoreDeadline) {
  TargetHandoff target = restored_target();
  target.cutover_received();
  ASSERT_TRUE(target.may_begin_cas(kRelayReadyAt + 1));
  target.begin_cas(kRelayReadyAt + 1);
  target.cas_result(CasResult::kRetryable, kRelayReadyAt + millis(100));
  EXPECT_EQ(target.stage(), TargetStage::kRelayReady) << "read and CAS again, same binding";
  ASSERT_TRUE(target.may_begin_cas(kRelayReadyAt + millis(200)));
  target.begin_cas(kRelayReadyAt + millis(200));
  target.cas_result(CasResult::kRetryable, kDeadline);
  EXPECT_EQ(target.stage(), TargetStage::kFailed);
  EXPECT_EQ(target.failure(), "location_update_failed");
  target.cas_result(CasResult::kApplied, kDeadline + 1);
  EXPECT_EQ(target.stage(), TargetStage::kFailed) << "a late reply never revives a terminal attempt";
  EXPECT_FALSE(target.dispatch_open());
}

TEST(TargetHandoff, PastTheDeadlineTheCasNeverBeginsAndTheAttemptFails) {
  TargetHandoff target = restored_target({work("s1")});
  target.hold_temporary(work("t1"));
  EXPECT_FALSE(target.may_begin_cas(kDeadline));
  EXPECT_EQ(target.failure(), "location_update_failed");
  EXPECT_FALSE(target.hold_temporary(work("t2")));
  EXPECT_FALSE(target.relayed(work("r1")));
}

TEST(TargetHandoff, AnotherOwnerEndsTheStaleRelocationAtOnce) {
  TargetHandoff target = restored_target();
  target.cutover_received();
  ASSERT_TRUE(target.may_begin_cas(kRelayReadyAt + 1));
  target.begin_cas(kRelayReadyAt + 1);
  target.cas_result(CasResult::kOtherOwner, kRelayReadyAt + 2);
  EXPECT_EQ(target.failure(), "other_owner");
  EXPECT_FALSE(target.may_begin_cas(kRelayReadyAt + 3));
}

TEST(TargetHandoff, APayloadFailureIsExplicitAndFinal) {
  TargetHandoff target(handoff_binding(), kDeadline);
  target.hold_temporary(work("t1"));
  target.payload_failed();
  EXPECT_EQ(target.stage(), TargetStage::kFailed);
  EXPECT_EQ(target.failure(), "payload");
  EXPECT_FALSE(target.may_begin_cas(kRelayReadyAt + kCutoverWaitUs));
}

TEST(TargetHandoff, ACancellationBeforeRelayReadyDiscardsTheTemporaryWorkUnrun) {
  TargetHandoff target(handoff_binding(), kDeadline);
  target.hold_temporary(work("t1"));
  target.hold_temporary(work("t2"));
  EXPECT_EQ(ops(target.cancel()), (std::vector<std::string>{"t1", "t2"}));
  EXPECT_EQ(target.stage(), TargetStage::kCancelled);
  EXPECT_FALSE(target.hold_temporary(work("t3")));
}

TEST(SourceHandoff, TheIngressIsHeldUntilTheMoveEndsAndCancellationRestoresTheQueueInOrder) {
  SourceHandoff source(handoff_binding());
  EXPECT_FALSE(source.accepts_new_work());
  EXPECT_TRUE(source.hold_ingress(work("i1")));
  source.captured({work("s1"), work("s2")});
  EXPECT_EQ(ops(source.saved_work()), (std::vector<std::string>{"s1", "s2"}));
  EXPECT_TRUE(source.hold_ingress(work("i2")));
  source.restore_sent();
  EXPECT_EQ(ops(source.cancel()), (std::vector<std::string>{"s1", "s2", "i1", "i2"}));
  EXPECT_TRUE(source.accepts_new_work());
  EXPECT_FALSE(source.hold_ingress(work("i3"))) << "cancelled: it runs as usual";
}

TEST(SourceHandoff, AfterRelayReadyTheSourceNeverReopensWhateverTheCutoverSubmitGave) {
  check::ScopedAssertionHandler throwing(&check::throw_invariant_violation);
  SourceHandoff source(handoff_binding());
  source.hold_ingress(work("i1"));
  source.captured({work("s1")});
  source.hold_ingress(work("i2"));
  source.restore_sent();
  EXPECT_EQ(ops(source.relay_ready_accepted().relay), (std::vector<std::string>{"i1", "i2"}));
  source.cutover_submitted(false);
  EXPECT_EQ(source.stage(), SourceStage::kHandedOver);
  EXPECT_FALSE(source.accepts_new_work());
  EXPECT_FALSE(source.hold_ingress(work("i3"))) << "Message Follow's now";
  EXPECT_TRUE(source.saved_work().empty()) << "the payload kept in memory is cleaned up";
  EXPECT_THROW(source.cancel(), check::InvariantViolation);
}

}  // namespace
}  // namespace spotcheck::location::relocation
