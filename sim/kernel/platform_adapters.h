// The platform seams (impl/platform) of one simulated process, backed by the kernel.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "impl/platform/platform.h"
#include "sim/ids.h"
#include "sim/random/stream.h"

namespace spotcheck::sim {

class Kernel;

class SimClock final : public platform::Clock {
 public:
  SimClock(Kernel& kernel, ProcessId process) : kernel_(&kernel), process_(process) {}
  TimeUs now_us() const override;
  void sleep_until(TimeUs deadline_us) override;

 private:
  Kernel* kernel_;
  ProcessId process_;
};

class SimTasks final : public platform::Tasks {
 public:
  SimTasks(Kernel& kernel, ProcessId process) : kernel_(&kernel), process_(process) {}
  void spawn(std::string name, std::function<void()> body) override;
  std::unique_ptr<platform::Gate> make_gate() override;
  void yield() override;

 private:
  Kernel* kernel_;
  ProcessId process_;
};

class SimTransport final : public platform::Transport {
 public:
  SimTransport(Kernel& kernel, ProcessId process, RoutingId self) : kernel_(&kernel), process_(process), self_(self) {}
  RoutingId self() const override { return self_; }
  void send(RoutingId to, std::string bytes) override;
  std::optional<platform::Envelope> receive(TimeUs deadline_us) override;

 private:
  Kernel* kernel_;
  ProcessId process_;
  RoutingId self_;
};

// Forwards to the stream of the current host run ("node/<name>/run/<n>"): a restart draws fresh numbers.
class SimRandom final : public platform::Random {
 public:
  std::uint64_t next_u64() override;
  void bind(Stream& stream) { stream_ = &stream; }

 private:
  Stream* stream_ = nullptr;
};

class SimEvents final : public platform::EventSink {
 public:
  SimEvents(Kernel& kernel, ProcessId process) : kernel_(&kernel), process_(process) {}
  using platform::EventSink::emit;
  void emit(std::string_view kind, std::span<const platform::Field> fields) override;
  void mark(platform::Mark mark) override;

 private:
  Kernel* kernel_;
  ProcessId process_;
};

struct ProcessPlatform {
  ProcessPlatform(Kernel& kernel, ProcessId process, RoutingId self)
      : clock(kernel, process), tasks(kernel, process), transport(kernel, process, self), events(kernel, process) {}
  SimClock clock;
  SimTasks tasks;
  SimTransport transport;
  SimRandom random;
  SimEvents events;
  platform::Platform platform{clock, tasks, transport, random, events};
};

}  // namespace spotcheck::sim
