// The in-memory Location Store and Relocation Store hosted as a simulated store server.
//
// Nodes reach it through StoreServer::location_client()/relocation_client(): each SPI call
// crosses the simulated network as a typed delivery to the store's RoutingId, runs on the
// in-memory provider at arrival (with the store's own clock giving StoreNow), and its reply
// crosses back. So a request can be lost before it applies, applied with its reply lost, answered
// after the caller's deadline, applied after its caller gave up (and after its re-read, or a
// newer write), refused during an outage or queued by a stalled store and applied when it
// recovers — spec §10's cases. A caller whose deadline passes gets Indeterminate for a write (it
// must re-read) and a timeout error for a read or scan. Every Location Store write the store
// applies is recorded as store.applied, the ground truth the store-truth property judges by.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/platform/event_kinds.h"
#include "impl/store/memory/memory_location_store.h"
#include "impl/store/memory/memory_relocation_store.h"
#include "impl/store/spi/location_store.h"
#include "impl/store/spi/relocation_store.h"
#include "sim/events/sim_events.h"
#include "sim/store_host/store_faults.h"
#include "sim/store_host/write_journal.h"
#include "sim/world.h"

namespace spotcheck::sim {

// The routing ids of the store servers a world runs: the Location Store's, and the Relocation
// Store's when it runs on a server of its own (read back by replay/diagram to name the lanes).
inline constexpr RoutingId kLocationStoreRoutingId = 0x5707'e000;
inline constexpr RoutingId kRelocationStoreRoutingId = kLocationStoreRoutingId + 1;

struct StoreServerConfig {
  RoutingId routing_id = kLocationStoreRoutingId;
  // StoreNow at virtual time 0 (Unix epoch milliseconds).
  store::StoreNowMs epoch_ms = 1'764'417'600'000;
  // This server's clock runs this far ahead (negative: behind) of epoch_ms + virtual time: two
  // servers' clocks differ within bounds (issue 11), each steady.
  std::int64_t clock_offset_ms = 0;
  // Names the server's random streams ("<name>.faults", ...); the `server` field of its outage and
  // stall events.
  std::string name{kLocationServerName};
  store::memory::MemoryStoreOptions options;

  static constexpr std::string_view kLocationServerName = events::kLocationStoreServer;
};

// What a request does at the store, for the faults that hold writes.
enum class RequestKind {
  kRead,           // a read or scan: never applied late
  kWrite,          // a write (Location Store write, payload put or remove)
  kDeletingWrite,  // a Location Store write with a Delete (StoreFaults::delete_hold_max_us)
  kLeaseRenew,     // a Location Store write that only puts one owner-lease row (StoreFaults::renew_loss)
  kLateRenew,      // such a renew that StoreFaults::renew_loss holds past its caller's deadline
};

class StoreServer {
 public:
  StoreServer(World& world, StoreServerConfig config);
  StoreServer(const StoreServer&) = delete;
  StoreServer& operator=(const StoreServer&) = delete;

  RoutingId routing_id() const { return _config.routing_id; }
  void set_faults(const StoreFaults& faults) { _faults = faults; }
  const StoreFaults& faults() const { return _faults; }
  // During a refusing outage the store refuses every request (StoreError kUnavailable, nothing
  // applied); during a stalling one it queues them, and applies them in arrival order (their
  // replies going out then) when the outage ends.
  void begin_outage(OutageMode mode = OutageMode::kRefuse);
  void end_outage();
  bool in_outage() const { return _outage.has_value(); }

  // Out of contract (faults/out_of_contract.h). The store's clock jumps forward by `by_ms` and
  // stays there (a failover to a replica with another clock); records store.clock_jumped.
  void jump_clock(std::int64_t by_ms);
  // Keep the Location Store writes of the last `window_us` so lose_writes can undo them (0: off).
  void keep_write_journal(TimeUs window_us) { _journal.keep_for(window_us); }
  // A failover to a replica `lag_us` behind: every Location Store write applied since then is undone
  // (each key back to what it held, the version counter back too) although its caller may have
  // been told it applied; records store.writes_lost and a store.write_lost per key. Returns the
  // number of writes lost.
  std::size_t lose_writes(TimeUs lag_us);

  // SPI clients for one node process; each must only be used from that process's tasks.
  std::unique_ptr<store::LocationStore> location_client(ProcessId node);
  std::unique_ptr<store::RelocationStore> relocation_client(ProcessId node);

  // The store's clock (StoreNow), from virtual time.
  store::StoreNowMs store_now_ms() const;
  // Direct access for checkers and tests, on the world context (no network, no faults).
  store::memory::MemoryLocationStore& location_engine() { return *_location; }
  store::memory::MemoryRelocationStore& relocation_engine() { return *_relocation; }

  // Used by the clients: sends `apply` to the store and its reply back, drawing the faults.
  // `apply` runs on the world context when the store serves the request — at arrival, or later
  // when a fault holds a write (StoreFaults) or a stalling outage queues it; `on_reply` runs when
  // the reply arrives. `deadline_us` is the caller's deadline on its local clock (a delayed reply
  // or a late write lands after it).
  template <class Result>
  void post(ProcessId node, const char* operation, TimeUs deadline_us, RequestKind kind,
            std::function<Result()> apply, std::function<void(Result)> on_reply);

  // At the store, on the world context: applies `node`'s Location Store write to the engine and,
  // when it applied, records its ground truth (event store.applied).
  store::WriteResult apply_location_write(ProcessId node, const store::WriteRequest& request);
  // At the store, on the world context: serves `node`'s scan page; under store-scan-expired in
  // pages of 1-3 entries, and a continued scan forgotten now and then (store.scan_expired).
  store::ScanResult serve_location_scan(ProcessId node, store::ScanRequest request);
  // At the store, on the world context: applies `node`'s Relocation Store put / remove to the
  // engine and, when it changed what the store holds, records its ground truth
  // (store.payload_applied).
  store::PutResult apply_payload_put(ProcessId node, const store::PayloadPut& request);
  // At the store, on the world context: serves `node`'s payload get; under store-payload-damage
  // (StoreFaults::payload_damage) a payload read again may turn invisible for a while, or be lost
  // or corrupted as it is read (store.payload_damaged).
  store::GetResult serve_payload_get(ProcessId node, const store::Key& reference);
  // What store-payload-damage does to one payload (a test may do it by hand): invisible for
  // `invisible_for_us` (reads answer Missing), lost, or corrupted (the bit 0 of byte `flip_at` of
  // its bytes flipped, modulo their size). Records store.payload_damaged naming `node` (the reader
  // whose read set it off); false, and nothing done, when the store does not hold it.
  enum class PayloadDamage { kInvisible, kLost, kCorrupted };
  bool damage_payload(ProcessId node, const store::Key& reference, PayloadDamage how, TimeUs invisible_for_us = 0,
                      std::size_t flip_at = 0);
  store::DeleteResult apply_payload_remove(ProcessId node, const store::Key& reference);

  World& world() { return _world; }
  const std::string& name() const { return _config.name; }

 private:
  // Records store.outage_begin, store.outage_end or store.stall_begin, naming this server.
  void record_outage_event(std::string_view kind);
  bool draw(double probability);
  // What StoreFaults::renew_loss does to one renew (drawn only when it is on).
  enum class RenewFault { kNone, kLost, kReplyLost, kRefused, kLate };
  RenewFault draw_renew_fault();
  // What StoreFaults::freeze_drop does to one request (its own stream, drawn only when it is on).
  enum class FreezeDrop { kNone, kRequestLost, kReplyLost };
  FreezeDrop draw_freeze_drop();
  // node-freeze-drop: `node` freezes from now for a drawn time; records store.froze_caller.
  void freeze_caller(ProcessId node, const char* operation);
  // The hold of a write that applies after its caller gave up: past `deadline_us` (the caller's
  // clock), then `extra_us` more; records store.write_late.
  TimeUs hold_past_deadline(ProcessId node, const char* operation, TimeUs deadline_us, TimeUs extra_us);
  // How long the store holds a request that has just arrived before it serves it (0: not held).
  TimeUs draw_hold_us(ProcessId node, const char* operation, TimeUs deadline_us, RequestKind kind);
  // At arrival: serves `serve` now, or after the drawn hold.
  void arrive(ProcessId node, const char* operation, TimeUs deadline_us, RequestKind kind,
              std::function<void()> serve);
  // Runs `serve`, or queues it while a stalling outage lasts.
  void serve_or_stall(ProcessId node, const char* operation, std::function<void()> serve);
  void send_reply(ProcessId node, const char* operation, TimeUs deadline_us, std::function<void()> deliver_reply);

  // A late write lands within this long after its caller gave up half the time.
  static constexpr TimeUs kLateSoonUs = platform::millis(8);
  // A late renew (RenewFault::kLate) lands up to this long past its caller's deadline: past the
  // default 5 s fencing margin, so it may apply after the lease it extends had expired.
  static constexpr TimeUs kRenewLateMaxUs = platform::seconds(8);
  // The longest a damaged payload stays invisible: well inside the re-reads a reader owes a
  // temporarily invisible payload (§10; the Instance Spot target re-reads for about 800 ms).
  static constexpr TimeUs kPayloadInvisibleMaxUs = platform::millis(500);
  // References store-payload-damage keeps track of; past it no new reference is damaged.
  static constexpr std::size_t kPayloadsTrackedMax = 100'000;
  // Bound on the requests one stalling outage queues; past it the store refuses.
  static constexpr std::size_t kStalledMax = 10'000;

  World& _world;
  StoreServerConfig _config;
  StoreFaults _faults;
  std::optional<OutageMode> _outage;
  std::vector<std::function<void()>> _stalled;  // in arrival order
  platform::Random& _random;
  // node-pause-on-reply's own draws: turning it on leaves every other store fault's draws as they were.
  platform::Random& _pause_random;
  // node-freeze-drop's own draws, likewise.
  platform::Random& _freeze_random;
  // store-scan-expired's own draws, likewise.
  platform::Random& _scan_random;
  // store-payload-damage's own draws, likewise, and what it did to each reference it saw read.
  platform::Random& _damage_random;
  struct PayloadReads {
    std::uint32_t found = 0;        // reads that found it
    bool damaged = false;           // at most once per reference
    TimeUs invisible_until_us = 0;  // reads before this answer Missing
  };
  std::map<std::string, PayloadReads, std::less<>> _payload_reads;
  std::unique_ptr<store::memory::MemoryLocationStore> _location;
  std::unique_ptr<store::memory::MemoryRelocationStore> _relocation;
  WriteJournal _journal;  // on only under store-lost-writes
};

template <class Result>
void StoreServer::post(ProcessId node, const char* operation, TimeUs deadline_us, RequestKind kind,
                       std::function<Result()> apply, std::function<void(Result)> on_reply) {
  const RoutingId from = _world.process_routing_id(node);
  if (draw(_faults.request_loss)) {
    _world.record_event(kinds::kStoreRequestLost, events::StoreOp{.node = node, .op = operation});
    return;
  }
  const RenewFault renew_fault = kind == RequestKind::kLeaseRenew ? draw_renew_fault() : RenewFault::kNone;
  if (renew_fault != RenewFault::kNone) {
    _world.count_mark(platform::Mark::kRenewFaultHit);
  }
  if (renew_fault == RenewFault::kLost) {
    _world.record_event(kinds::kStoreRequestLost, events::StoreOp{.node = node, .op = operation});
    return;
  }
  const FreezeDrop freeze = draw_freeze_drop();
  if (freeze == FreezeDrop::kRequestLost) {
    _world.record_event(kinds::kStoreRequestLost, events::StoreOp{.node = node, .op = operation});
    freeze_caller(node, operation);
    return;
  }
  // When the store serves it: the refusal of an outage, or the apply; then the reply.
  std::function<void()> serve = [this, node, operation, deadline_us, drawn_renew_fault = renew_fault,
                                 drawn_freeze = freeze, apply = std::move(apply),
                                 on_reply = std::move(on_reply)]() mutable {
    std::optional<Result> result;
    // A fault drawn as the request left applies only while faults are on: one served after they
    // stopped (held, queued by a stall) is served plainly.
    const RenewFault renew_fault = _faults.renew_loss > 0.0 ? drawn_renew_fault : RenewFault::kNone;
    const FreezeDrop freeze = _faults.freeze_drop > 0.0 ? drawn_freeze : FreezeDrop::kNone;
    if (renew_fault == RenewFault::kRefused) {
      _world.record_event(kinds::kStoreRefused, events::StoreOp{.node = node, .op = operation});
      result = Result{store::StoreError{store::StoreErrorKind::kUnavailable, "renew refused"}};
    } else if (_outage.has_value()) {
      _world.record_event(kinds::kStoreRefused, events::StoreOp{.node = node, .op = operation});
      result = Result{store::StoreError{store::StoreErrorKind::kUnavailable, "store outage"}};
    } else {
      result = apply();
      if (renew_fault == RenewFault::kReplyLost) {
        _world.record_event(kinds::kStoreReplyLost, events::StoreOp{.node = node, .op = operation});
        return;
      }
    }
    if (freeze == FreezeDrop::kReplyLost) {
      _world.record_event(kinds::kStoreReplyLost, events::StoreOp{.node = node, .op = operation});
      freeze_caller(node, operation);
      return;
    }
    send_reply(node, operation, deadline_us, [on_reply = std::move(on_reply), result = std::move(*result)]() mutable {
      on_reply(std::move(result));
    });
  };
  const RequestKind arrival = renew_fault == RenewFault::kLate ? RequestKind::kLateRenew : kind;
  _world.network().deliver(from, _config.routing_id,
                           [this, node, operation, deadline_us, arrival, serve = std::move(serve)]() mutable {
                             arrive(node, operation, deadline_us, arrival, std::move(serve));
                           });
}

}  // namespace spotcheck::sim
