// Parking and waking tasks: sleeps, gates, receives, yields.
#include <utility>

#include "impl/check/check.h"
#include "sim/kernel/kernel.h"

namespace spotcheck::sim {
namespace {

// Every wait loop re-checks its condition after a wake; a wake is either final or moves time on,
// so a handful of iterations per call is the norm. The bound catches a livelock.
constexpr int kMaxWaitRounds = 1'000'000;

}  // namespace

WakeReason Kernel::wait(Task& task, TimeUs deadline_local_us, WaitList* list) {
  return park(task, deadline_local_us, list);
}

// wait()'s body, inlined into the blocking calls of this file: a parked fiber's stack then holds
// one frame less, which is one cache line less to bring back at every switch.
[[gnu::always_inline]] inline WakeReason Kernel::park(Task& task, TimeUs deadline_local_us, WaitList* list) {
  SPOTCHECK_ASSERT_ABORT(&task == current_);
  SPOTCHECK_ASSERT_ABORT(task.wait_token == 0);
  Process& owner = process(task.process);
  if (owner.state != ProcessState::running) {
    // Only a dying process runs a task while not running: a destructor parked during unwinding.
    SPOTCHECK_ASSERT_ABORT(owner.state == ProcessState::dead);
    return WakeReason::killed;
  }
  const std::uint64_t token = next_token_++;
  task.wait_token = token;
  task.deadline_local_us = deadline_local_us;
  if (list != nullptr) {
    list->add(WaitRef{task.slot, token});
  }
  if (deadline_local_us != platform::kNever) {
    schedule(owner.clock.virtual_from_local(deadline_local_us),
             ReadyEntry{token, task.slot, EntryKind::task_timer, WakeReason::timer});
  }
  task.fiber.suspend();
  // Resumed by the scheduler through a claimed wake.
  SPOTCHECK_ASSERT_ABORT(task.wait_token == 0);
  SPOTCHECK_ASSERT_ABORT(task.claimed_token == 0);
  task.deadline_local_us = platform::kNever;
  const WakeReason reason = task.wake_reason;
  if (reason == WakeReason::timer && list != nullptr) {
    list->remove(token);  // still registered: nothing else claimed this wait
  }
  return reason;
}

void Kernel::wake(const WaitRef& ref, WakeReason reason) {
  Task* task = task_at(ref.slot);
  if (task == nullptr || task->wait_token != ref.token) {
    return;  // stale: the wait already ended or the task is gone
  }
  task->wait_token = 0;
  task->claimed_token = ref.token;
  task->wake_reason = reason;
  ready_.push_back(ReadyEntry{ref.token, ref.slot, EntryKind::task, reason});
}

void Kernel::wake_all(WaitList& list, WakeReason reason) {
  for (const WaitRef& ref : list.take()) {
    wake(ref, reason);
  }
}

void Kernel::sleep_until_local(ProcessId process_id, TimeUs deadline_local_us) {
  Task& task = require_current(process_id);
  SPOTCHECK_ASSERT_ABORT(deadline_local_us != platform::kNever);
  for (int round = 0; local_now_us(process_id) < deadline_local_us; ++round) {
    SPOTCHECK_ASSERT_ABORT(round < kMaxWaitRounds);
    if (park(task, deadline_local_us, nullptr) == WakeReason::killed) {
      return;
    }
  }
}

void Kernel::yield(ProcessId process_id) {
  Task& task = require_current(process_id);
  SPOTCHECK_ASSERT_ABORT(task.wait_token == 0);
  if (process(process_id).state != ProcessState::running) {
    return;  // dying
  }
  const std::uint64_t token = next_token_++;
  task.claimed_token = token;
  task.wake_reason = WakeReason::yield;
  ready_.push_back(ReadyEntry{token, task.slot, EntryKind::task, WakeReason::yield});
  task.fiber.suspend();
  SPOTCHECK_ASSERT_ABORT(task.claimed_token == 0);
}

std::optional<platform::Envelope> Kernel::receive(ProcessId process_id, TimeUs deadline_local_us) {
  Task& task = require_current(process_id);
  Process& owner = process(process_id);
  for (int round = 0;; ++round) {
    SPOTCHECK_ASSERT_ABORT(round < kMaxWaitRounds);
    if (!owner.inbox.empty()) {
      platform::Envelope envelope = std::move(owner.inbox.front());
      owner.inbox.pop_front();
      return envelope;
    }
    if (local_now_us(process_id) >= deadline_local_us) {
      return std::nullopt;
    }
    if (park(task, deadline_local_us, &owner.inbox_waiters) == WakeReason::killed) {
      return std::nullopt;
    }
  }
}

void Kernel::emit(ProcessId process_id, std::string_view kind, std::span<const platform::Field> fields) {
  record(static_cast<std::int32_t>(process_id), current_task_id(), kind, fields, true);
}

}  // namespace spotcheck::sim
