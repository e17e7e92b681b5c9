// A tiny synchronous platform for the Location runtime's unit tests: a fake clock that tests (and
// blocking waits) advance, a seeded Random, a recording EventSink, Tasks/Transport doubles, and a
// store wrapper that injects slow replies, lost replies and refusals in front of the in-memory
// provider. Nothing here runs fibers: a "blocking" call returns at once after moving the clock.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/platform/platform.h"
#include "impl/store/memory/memory_location_store.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::testing {

using platform::TimeUs;

class FakeClock final : public platform::Clock {
 public:
  TimeUs now_us() const override { return _now_us; }
  void sleep_until(TimeUs deadline_us) override { advance_to(deadline_us); }
  void advance(TimeUs delta_us) { _now_us += delta_us; }
  void advance_to(TimeUs t_us) {
    if (t_us > _now_us) {
      _now_us = t_us;
    }
  }

 private:
  TimeUs _now_us = 1'000'000;
};

// SplitMix64: deterministic for a seed.
class SeededRandom final : public platform::Random {
 public:
  explicit SeededRandom(std::uint64_t seed) : _state(seed) {}
  std::uint64_t next_u64() override {
    std::uint64_t z = (_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t _state;
};

struct RecordedEvent {
  std::string kind;
  std::map<std::string, std::string> text;
  std::map<std::string, std::int64_t> number;

  std::string str(const std::string& key) const {
    auto it = text.find(key);
    return it == text.end() ? std::string("<absent>") : it->second;
  }
  std::int64_t num(const std::string& key) const {
    auto it = number.find(key);
    return it == number.end() ? INT64_MIN : it->second;
  }
};

class RecordingEvents final : public platform::EventSink {
 public:
  using platform::EventSink::emit;
  void emit(std::string_view kind, std::span<const platform::Field> fields) override {
    RecordedEvent event;
    event.kind = std::string(kind);
    for (const platform::Field& field : fields) {
      if (field.is_text) {
        event.text[std::string(field.key)] = std::string(field.text);
      } else {
        event.number[std::string(field.key)] = field.number;
      }
    }
    events.push_back(std::move(event));
  }
  std::vector<RecordedEvent> of_kind(std::string_view kind) const {
    std::vector<RecordedEvent> out;
    for (const RecordedEvent& event : events) {
      if (event.kind == kind) {
        out.push_back(event);
      }
    }
    return out;
  }
  std::size_t count(std::string_view kind) const { return of_kind(kind).size(); }
  void clear() { events.clear(); }

  std::vector<RecordedEvent> events;
};

// A gate that "waits" by advancing the fake clock to the deadline.
class FakeGate final : public platform::Gate {
 public:
  FakeGate(FakeClock& clock, std::function<void()>& on_wait) : _clock(clock), _on_wait(on_wait) {}
  bool wait_until(TimeUs deadline_us) override {
    if (_open) {
      return true;
    }
    _clock.advance_to(deadline_us);
    if (_on_wait) {
      _on_wait();
    }
    return _open;
  }
  void open() override { _open = true; }
  void close() override { _open = false; }
  bool is_open() const override { return _open; }

 private:
  FakeClock& _clock;
  std::function<void()>& _on_wait;
  bool _open = false;
};

// spawn() queues the body; run_spawned() runs queued bodies to completion, in order.
class FakeTasks final : public platform::Tasks {
 public:
  explicit FakeTasks(FakeClock& clock) : _clock(clock) {}
  void spawn(std::string name, std::function<void()> body) override {
    spawned_names.push_back(std::move(name));
    _queue.push_back(std::move(body));
  }
  std::unique_ptr<platform::Gate> make_gate() override {
    return std::make_unique<FakeGate>(_clock, on_gate_wait);
  }
  void yield() override {}
  void run_spawned() {
    while (!_queue.empty()) {
      std::function<void()> body = std::move(_queue.front());
      _queue.pop_front();
      body();
    }
  }

  std::vector<std::string> spawned_names;
  // Called after every gate wait moved the clock (e.g. to stop a loop after N rounds).
  std::function<void()> on_gate_wait;

 private:
  FakeClock& _clock;
  std::deque<std::function<void()>> _queue;
};

class NullTransport final : public platform::Transport {
 public:
  explicit NullTransport(platform::RoutingId self) : _self(self) {}
  platform::RoutingId self() const override { return _self; }
  void send(platform::RoutingId to, std::string bytes) override { sent.emplace_back(to, std::move(bytes)); }
  std::optional<platform::Envelope> receive(TimeUs) override { return std::nullopt; }
  std::vector<std::pair<platform::RoutingId, std::string>> sent;

 private:
  platform::RoutingId _self;
};

// One scripted fault for the next matching store call.
struct StoreFault {
  enum class Kind {
    kSlow,               // the request takes `before_us` to arrive and `after_us` to answer
    kLoseReplyApplied,   // applied, then the reply is lost: Indeterminate
    kLoseRequest,        // never applied: Indeterminate
    kUnavailable,        // refused: StoreError{kUnavailable}
  };
  Kind kind = Kind::kSlow;
  TimeUs before_us = 0;
  TimeUs after_us = 0;
};

// Forwards to the memory provider, applying scripted faults. Separate queues for reads and
// writes; scans pass through.
class ScriptedStore final : public store::LocationStore {
 public:
  ScriptedStore(store::LocationStore& inner, FakeClock& clock) : _inner(inner), _clock(clock) {}

  store::ReadResult read(const store::Key& key, store::DeadlineUs deadline_us) override {
    ++reads;
    if (before_read && !_in_hook) {
      _in_hook = true;  // the hook may itself use the store
      before_read(key);
      _in_hook = false;
    }
    std::optional<StoreFault> fault = next(read_faults);
    if (fault && fault->kind == StoreFault::Kind::kUnavailable) {
      return store::StoreError{store::StoreErrorKind::kUnavailable, "scripted"};
    }
    if (fault) {
      _clock.advance(fault->before_us);
    }
    store::ReadResult result = _inner.read(key, deadline_us);
    if (fault) {
      _clock.advance(fault->after_us);
    }
    return result;
  }

  store::WriteResult write(const store::WriteRequest& request,
                           store::DeadlineUs deadline_us) override {
    ++writes;
    if (before_write && !_in_hook) {
      _in_hook = true;
      before_write(request);
      _in_hook = false;
    }
    store::WriteResult result = write_with_fault(request, deadline_us);
    if (after_write && !_in_hook) {
      _in_hook = true;  // e.g. another task of the host runs while this reply is on its way
      after_write(request);
      _in_hook = false;
    }
    return result;
  }

  store::ScanResult scan(const store::ScanRequest& request, store::DeadlineUs deadline_us) override {
    return _inner.scan(request, deadline_us);
  }

  // Runs before each read is served (e.g. to change a row between a list and its re-read).
  std::function<void(const store::Key&)> before_read;
  // Runs before each write is served (e.g. to let a competing write land first).
  std::function<void(const store::WriteRequest&)> before_write;
  // Runs after each write was served (or lost), before its reply reaches the caller: what other
  // tasks of the host do while the caller is parked.
  std::function<void(const store::WriteRequest&)> after_write;
  std::deque<StoreFault> read_faults;
  std::deque<StoreFault> write_faults;
  std::size_t reads = 0;
  std::size_t writes = 0;

 private:
  store::WriteResult write_with_fault(const store::WriteRequest& request,
                                      store::DeadlineUs deadline_us) {
    std::optional<StoreFault> fault = next(write_faults);
    if (!fault) {
      return _inner.write(request, deadline_us);
    }
    switch (fault->kind) {
      case StoreFault::Kind::kUnavailable:
        return store::StoreError{store::StoreErrorKind::kUnavailable, "scripted"};
      case StoreFault::Kind::kLoseRequest:
        _clock.advance(fault->before_us);
        return store::Indeterminate{"scripted: request lost"};
      case StoreFault::Kind::kLoseReplyApplied: {
        _clock.advance(fault->before_us);
        (void)_inner.write(request, deadline_us);
        _clock.advance(fault->after_us);
        return store::Indeterminate{"scripted: reply lost"};
      }
      case StoreFault::Kind::kSlow:
        break;
    }
    _clock.advance(fault->before_us);
    store::WriteResult result = _inner.write(request, deadline_us);
    _clock.advance(fault->after_us);
    return result;
  }

  static std::optional<StoreFault> next(std::deque<StoreFault>& queue) {
    if (queue.empty()) {
      return std::nullopt;
    }
    StoreFault fault = queue.front();
    queue.pop_front();
    return fault;
  }

  store::LocationStore& _inner;
  FakeClock& _clock;
  bool _in_hook = false;
};

// Store time = a fixed epoch + the fake clock (in ms) + a skew tests may change.
inline constexpr std::int64_t kEpochBaseMs = 1'764'417'600'000;

// One shared world: one clock, one memory store behind a ScriptedStore.
struct World {
  FakeClock clock;
  RecordingEvents events;
  std::int64_t store_skew_ms = 0;
  store::memory::MemoryLocationStore memory{
      [this] { return kEpochBaseMs + clock.now_us() / 1000 + store_skew_ms; }};
  ScriptedStore store{memory, clock};
};

// One host process's platform in the world: its own Random stream and Tasks.
struct Host {
  Host(World& world, std::uint64_t seed, platform::RoutingId rid)
      : random(seed), tasks(world.clock), transport(rid),
        platform{world.clock, tasks, transport, random, world.events} {}
  SeededRandom random;
  FakeTasks tasks;
  NullTransport transport;
  platform::Platform platform;
};

}  // namespace spotcheck::location::testing
