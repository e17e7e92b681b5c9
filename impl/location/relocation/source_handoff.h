// The source's side of one relocation attempt (spec §1.3 steps 3–5 and 8, §8.2, §9.1, §9.4): a
// state machine with no I/O. The source stays owner until the target's CAS; it writes nothing to
// the Location Store for the move on a timeout or a target choice (§8).
//
//   kPreparing     the move began: new work is held (the ingress hold), never run here; the current
//                  turn finishes.
//   kCaptured      state, timers and the accepted, not yet run work (the saved work) are captured
//                  and kept in memory (the payload).
//   kRestoreSent   the Restore request and its chunks went to the target attempt.
//   kHandedOver    terminal: relay-ready was accepted; the ingress hold was relayed and cutover
//                  sent one-way on the same ordered connection. The source never reopens after
//                  this, whatever the cutover submit gave (§9.4); what arrives now is Message
//                  Follow's (§7.3). It waits for no completion reply.
//   kCancelled     terminal: cancelled before relay-ready was accepted (§9.4): the saved work and
//                  the ingress hold go back to the source queue in their original order, and the
//                  source accepts new work again; the Location Store is neither read nor written.
#pragma once

#include <vector>

#include "impl/location/relocation/relocation_ids.h"
#include "impl/location/relocation/target_handoff.h"

namespace spotcheck::location::relocation {

enum class SourceStage { kPreparing, kCaptured, kRestoreSent, kHandedOver, kCancelled };
const char* to_string(SourceStage stage);

// What the source sends once relay-ready is accepted, in this order on the ordered connection: the
// relay (its ingress hold, as it arrived), then cutover.
struct Handover {
  std::vector<HandoffWork> relay;
};

class SourceHandoff {
 public:
  explicit SourceHandoff(RestoreBinding binding);

  const RestoreBinding& binding() const { return _binding; }
  SourceStage stage() const { return _stage; }
  // New work may start here: only once the move is cancelled (§9.4 step 6). Before, it is held;
  // after the handover it follows the object (§7.3).
  bool accepts_new_work() const { return _stage == SourceStage::kCancelled; }

  // New work for the object while the move is on: held in arrival order (true); false once the
  // move is over (handed over: Message Follow's; cancelled: run as usual).
  bool hold_ingress(HandoffWork work);
  // After the current turn: the saved work (in queue order) is captured into the payload.
  void captured(std::vector<HandoffWork> saved_work);
  // The payload the Restore carries: the saved work (state and timers aside).
  const std::vector<HandoffWork>& saved_work() const { return _saved; }
  void restore_sent();
  // Relay-ready accepted: the relay to send before cutover. The source is no longer a place work
  // can run: even if the cutover submit then fails, it does not reopen.
  Handover relay_ready_accepted();
  // The cutover submit finished (sent or not): the payload kept in memory is cleaned up (§1.3
  // step 8). The source stays handed over either way.
  void cutover_submitted(bool sent);
  // §9.4, before relay-ready was accepted: the source queue to restore — saved work, then the
  // ingress hold — in original order; new work is accepted again after this.
  std::vector<HandoffWork> cancel();

 private:
  RestoreBinding _binding;
  SourceStage _stage = SourceStage::kPreparing;
  std::vector<HandoffWork> _saved;
  std::vector<HandoffWork> _ingress;
};

}  // namespace spotcheck::location::relocation
