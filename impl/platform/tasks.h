// Seam: cooperative tasks of one host process.
//
// A blocking call (sleep, store request, receive, waiting on a Gate) parks only the calling task.
// Killing a process unwinds every one of its tasks: protocol code that catches (...) must rethrow.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "impl/platform/time.h"

namespace spotcheck::platform {

// A level-triggered wake-up point. Tasks wait on it until it is opened or a deadline passes.
// Owned by protocol code; created by Tasks::make_gate() so the platform decides how to park.
class Gate {
 public:
  virtual ~Gate() = default;
  // Returns true when the gate is (or becomes) open, false when deadline_us passes first.
  virtual bool wait_until(TimeUs deadline_us) = 0;
  // Opens the gate and wakes every waiter. Stays open until close().
  virtual void open() = 0;
  virtual void close() = 0;
  virtual bool is_open() const = 0;
};

class Tasks {
 public:
  virtual ~Tasks() = default;
  // Starts a task of the calling process. `name` appears in traces.
  virtual void spawn(std::string name, std::function<void()> body) = 0;
  virtual std::unique_ptr<Gate> make_gate() = 0;
  // Lets other runnable tasks run before the caller continues.
  virtual void yield() = 0;
};

}  // namespace spotcheck::platform
