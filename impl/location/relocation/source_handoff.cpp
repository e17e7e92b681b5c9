#include "impl/location/relocation/source_handoff.h"

#include <utility>

#include "impl/check/check.h"

namespace spotcheck::location::relocation {

const char* to_string(SourceStage stage) {
  switch (stage) {
    case SourceStage::kPreparing:
      return "preparing";
    case SourceStage::kCaptured:
      return "captured";
    case SourceStage::kRestoreSent:
      return "restore_sent";
    case SourceStage::kHandedOver:
      return "handed_over";
    case SourceStage::kCancelled:
      return "cancelled";
  }
  return "?";
}

SourceHandoff::SourceHandoff(RestoreBinding binding) : _binding(std::move(binding)) {
  SPOTCHECK_ASSERT(!_binding.relocation.empty());
  SPOTCHECK_ASSERT(!_binding.fence.owner_id.empty());
}

bool SourceHandoff::hold_ingress(HandoffWork work) {
  if (_stage == SourceStage::kHandedOver || _stage == SourceStage::kCancelled) {
    return false;
  }
  _ingress.push_back(std::move(work));
  return true;
}

void SourceHandoff::captured(std::vector<HandoffWork> saved_work) {
  SPOTCHECK_ASSERT(_stage == SourceStage::kPreparing);
  _saved = std::move(saved_work);
  _stage = SourceStage::kCaptured;
}

void SourceHandoff::restore_sent() {
  SPOTCHECK_ASSERT(_stage == SourceStage::kCaptured);
  _stage = SourceStage::kRestoreSent;
}

Handover SourceHandoff::relay_ready_accepted() {
  SPOTCHECK_ASSERT(_stage == SourceStage::kRestoreSent);
  _stage = SourceStage::kHandedOver;
  Handover handover{std::move(_ingress)};
  _ingress.clear();
  return handover;
}

void SourceHandoff::cutover_submitted(bool sent) {
  SPOTCHECK_ASSERT(_stage == SourceStage::kHandedOver);
  (void)sent;  // sent or not, the source does not reopen (§9.4): the target's CAS decides
  _saved.clear();
}

std::vector<HandoffWork> SourceHandoff::cancel() {
  // §9.4 holds only before relay-ready was accepted; after it the source never restores itself.
  SPOTCHECK_ASSERT(_stage == SourceStage::kPreparing || _stage == SourceStage::kCaptured ||
                   _stage == SourceStage::kRestoreSent);
  std::vector<HandoffWork> queue = std::move(_saved);
  _saved.clear();
  for (HandoffWork& work : _ingress) {
    queue.push_back(std::move(work));
  }
  _ingress.clear();
  _stage = SourceStage::kCancelled;
  return queue;
}

}  // namespace spotcheck::location::relocation
