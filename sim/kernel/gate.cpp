#include "sim/kernel/gate.h"

#include "impl/check/check.h"
#include "sim/kernel/kernel.h"

namespace spotcheck::sim {

SimGate::~SimGate() { kernel_->wake_all(waiters_, WakeReason::gate_gone); }

bool SimGate::wait_until(TimeUs deadline_us) {
  Task& task = kernel_->require_current();
  for (int round = 0;; ++round) {
    SPOTCHECK_ASSERT_ABORT(round < 1'000'000);
    if (open_) {
      return true;
    }
    if (kernel_->local_now_us(task.process) >= deadline_us) {
      return false;
    }
    switch (kernel_->wait(task, deadline_us, &waiters_)) {
      case WakeReason::gate:
        return true;  // it opened (it may have closed again since: level seen at wake time)
      case WakeReason::gate_gone:
      case WakeReason::killed:
        return false;  // `this` may be gone: touch nothing
      default:
        break;  // timer: re-check (a drift change can wake a waiter early)
    }
  }
}

void SimGate::open() {
  if (open_) {
    return;
  }
  open_ = true;
  kernel_->wake_all(waiters_, WakeReason::gate);
}

}  // namespace spotcheck::sim
