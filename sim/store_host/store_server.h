// The in-memory Location Store and Relocation Store hosted as a simulated store server.
//
// Nodes reach it through StoreServer::location_client()/relocation_client(): each SPI call
// crosses the simulated network as a typed delivery to the store's RoutingId, runs on the
// in-memory provider at arrival (with the store's own clock giving StoreNow), and its reply
// crosses back. So a request can be lost before it applies, applied with its reply lost, answered
// after the caller's deadline, or refused during an outage — exactly spec §10's cases. A caller
// whose deadline passes gets Indeterminate for a write (it must re-read) and a timeout error for
// a read or scan.
#pragma once

#include <cstdint>
#include <memory>

#include "impl/platform/event_kinds.h"
#include "impl/store/memory/memory_location_store.h"
#include "impl/store/memory/memory_relocation_store.h"
#include "impl/store/spi/location_store.h"
#include "impl/store/spi/relocation_store.h"
#include "sim/events/sim_events.h"
#include "sim/store_host/store_faults.h"
#include "sim/world.h"

namespace spotcheck::sim {

struct StoreServerConfig {
  RoutingId routing_id = 0x5707'e000;
  // StoreNow at virtual time 0 (Unix epoch milliseconds).
  store::StoreNowMs epoch_ms = 1'764'417'600'000;
  store::memory::MemoryStoreOptions options;
};

class StoreServer {
 public:
  StoreServer(World& world, StoreServerConfig config);
  StoreServer(const StoreServer&) = delete;
  StoreServer& operator=(const StoreServer&) = delete;

  RoutingId routing_id() const { return _config.routing_id; }
  void set_faults(const StoreFaults& faults) { _faults = faults; }
  const StoreFaults& faults() const { return _faults; }
  // During an outage the store refuses every request (StoreError kUnavailable, nothing applied).
  void begin_outage();
  void end_outage();
  bool in_outage() const { return _outage; }

  // SPI clients for one node process; each must only be used from that process's tasks.
  std::unique_ptr<store::LocationStore> location_client(ProcessId node);
  std::unique_ptr<store::RelocationStore> relocation_client(ProcessId node);

  // The store's clock (StoreNow), from virtual time.
  store::StoreNowMs store_now_ms() const;
  // Direct access for checkers and tests, on the world context (no network, no faults).
  store::memory::MemoryLocationStore& location_engine() { return *_location; }
  store::memory::MemoryRelocationStore& relocation_engine() { return *_relocation; }

  // Used by the clients: sends `apply` to the store and its reply back, drawing the faults.
  // `apply` runs on the world context at arrival — for a write that deletes a record
  // (`deletes`), a drawn hold later when StoreFaults::delete_hold_max_us is on; `on_reply` runs
  // when the reply arrives. `deadline_us` is the caller's deadline on its local clock (a delayed
  // reply lands after it).
  template <class Result>
  void post(ProcessId node, const char* operation, TimeUs deadline_us, std::function<Result()> apply,
            std::function<void(Result)> on_reply, bool deletes = false);

  World& world() { return _world; }

 private:
  bool draw(double probability);
  // The hold of a write that deletes a record, drawn at its arrival (0 and no draw when off).
  TimeUs draw_delete_hold_us();
  void send_reply(ProcessId node, const char* operation, TimeUs deadline_us, std::function<void()> deliver_reply);

  World& _world;
  StoreServerConfig _config;
  StoreFaults _faults;
  bool _outage = false;
  platform::Random& _random;
  std::unique_ptr<store::memory::MemoryLocationStore> _location;
  std::unique_ptr<store::memory::MemoryRelocationStore> _relocation;
};

template <class Result>
void StoreServer::post(ProcessId node, const char* operation, TimeUs deadline_us, std::function<Result()> apply,
                       std::function<void(Result)> on_reply, bool deletes) {
  const RoutingId from = _world.process_routing_id(node);
  if (draw(_faults.request_loss)) {
    _world.record_event(kinds::kStoreRequestLost, events::StoreOp{.node = node, .op = operation});
    return;
  }
  // At arrival (after the hold): the outage check, the apply, the reply.
  auto serve = [this, node, operation, deadline_us, apply = std::move(apply),
                on_reply = std::move(on_reply)]() mutable {
    std::optional<Result> result;
    if (_outage) {
      _world.record_event(kinds::kStoreRefused, events::StoreOp{.node = node, .op = operation});
      result = Result{store::StoreError{store::StoreErrorKind::kUnavailable, "store outage"}};
    } else {
      result = apply();
    }
    send_reply(node, operation, deadline_us, [on_reply = std::move(on_reply), result = std::move(*result)]() mutable {
      on_reply(std::move(result));
    });
  };
  if (!deletes) {
    _world.network().deliver(from, _config.routing_id, std::move(serve));
    return;
  }
  _world.network().deliver(from, _config.routing_id, [this, node, operation, serve = std::move(serve)]() mutable {
    const TimeUs hold_us = draw_delete_hold_us();
    if (hold_us == 0) {
      serve();
      return;
    }
    _world.record_event(kinds::kStoreWriteHeld, events::StoreHold{.node = node, .op = operation, .hold_us = hold_us});
    _world.at(_world.now_us() + hold_us, std::move(serve));
  });
}

}  // namespace spotcheck::sim
