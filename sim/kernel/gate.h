// platform::Gate for simulated tasks: a level-triggered wake-up point with a local-clock deadline.
// Destroying a gate wakes its waiters with `false`.
#pragma once

#include "impl/platform/tasks.h"
#include "sim/ids.h"
#include "sim/kernel/wait_list.h"

namespace spotcheck::sim {

class Kernel;

class SimGate final : public platform::Gate {
 public:
  explicit SimGate(Kernel& kernel) : kernel_(&kernel) {}
  ~SimGate() override;
  bool wait_until(TimeUs deadline_us) override;
  void open() override;
  void close() override { open_ = false; }
  bool is_open() const override { return open_; }

 private:
  Kernel* kernel_;
  bool open_ = false;
  WaitList waiters_;
};

}  // namespace spotcheck::sim
