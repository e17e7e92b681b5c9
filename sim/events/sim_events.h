// The typed simulator events (docs/simulator.md "Trace"): one struct per kind with
// fields, its fields declared once in fields() (impl/platform/event_fields.h). Kinds without
// fields (start.ignored, kill.ignored, pause.ignored, task.*, wake.*, net.heal_all,
// store.outage_begin|end) have no struct. The kinds are those of impl/platform/event_kinds.h.
//
// Who records which kind:
//   sim/kernel/processes.cpp   process.add, start, kill, crash (ProcessCrash), pause, unpause, clock.drift (ProcessAdd,
//                              ProcessRun, ProcessPause, ProcessUnpause, ClockDrift); net.drop and
//                              net.deliver of typed arrivals held back by a pause (NetDrop, NetDeliver)
//   sim/kernel/kernel.cpp      spawn, spawn.refused, exit, action, violation, failure (Spawn,
//                              SpawnRefused, ProcessRun, Action, Violation, Failure)
//   sim/kernel/network.cpp    net.link, net.partition, net.heal|disconnect|reconnect,
//                              net.drop, net.post|send, net.deliver|deferred, net.stall (NetLink,
//                              NetPartition, NetPair, NetDrop, NetSend, NetDeliver, NetStall)
//   sim/store_host/            store.request_lost, store.refused (store_server.h); store.reply_lost,
//                              store.reply_delayed, store.write_held, store.write_late,
//                              store.stalled, store.stall_begin|end, store.applied (store_server.cpp)
//                              (StoreOp, StoreHold, StoreOutage, StoreStallEnd, StoreApplied)
// The harness's kinds (workloads, the fault injector) are in sim/events/harness_events.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::sim::events {

// ---- processes ---------------------------------------------------------------------------------

// process.add: a simulated process joins the world.
struct ProcessAdd {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t routing_id = 0;
  std::int64_t drift_ppm = 0;  // its local clock's drift, drawn at creation
};

template <class Io, platform::FieldsOf<ProcessAdd> E>
void fields(Io& io, E& e) {
  io("routing_id", e.routing_id);
  io("drift_ppm", e.drift_ppm);
}

// start | kill | exit: a host run begins, is killed (every fiber unwound), or its main returned.
struct ProcessRun {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t run = 0;  // the host run's number, from 1
};

template <class Io, platform::FieldsOf<ProcessRun> E>
void fields(Io& io, E& e) {
  io("run", e.run);
}

// crash: the host run died at `point` of its own code (World::crash, a crash-point fault); a kill
// of the same run follows.
struct ProcessCrash {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t run = 0;
  std::string_view point;
};

template <class Io, platform::FieldsOf<ProcessCrash> E>
void fields(Io& io, E& e) {
  io("run", e.run);
  io("point", e.point);
}

// pause: the process freezes until until_us (virtual time).
struct ProcessPause {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t duration_us = 0;
  std::int64_t until_us = 0;  // a pause during a pause extends it, never shortens it
};

template <class Io, platform::FieldsOf<ProcessPause> E>
void fields(Io& io, E& e) {
  io("duration_us", e.duration_us);
  io("until_us", e.until_us);
}

// unpause: the process runs again; `frozen` task wakes held during the pause run now.
struct ProcessUnpause {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t frozen = 0;
};

template <class Io, platform::FieldsOf<ProcessUnpause> E>
void fields(Io& io, E& e) {
  io("frozen", e.frozen);
}

// clock.drift: the process's local clock runs at a new rate from now on.
struct ClockDrift {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t drift_ppm = 0;
};

template <class Io, platform::FieldsOf<ClockDrift> E>
void fields(Io& io, E& e) {
  io("drift_ppm", e.drift_ppm);
}

// clock.stepped: the process's local clock stepped by `by_us` (back when negative): out of
// contract (faults/out_of_contract.h), a monotonic clock never steps.
struct ClockStepped {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t by_us = 0;
};

template <class Io, platform::FieldsOf<ClockStepped> E>
void fields(Io& io, E& e) {
  io("by_us", e.by_us);
}

// ---- tasks and the world -----------------------------------------------------------------------

// spawn: a task was created (recorded on the spawning task).
struct Spawn {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t new_task = 0;  // the new task's TaskId
  std::string_view name;
};

template <class Io, platform::FieldsOf<Spawn> E>
void fields(Io& io, E& e) {
  io("new_task", e.new_task);
  io("name", e.name);
}

// spawn.refused: a task was spawned on a process that is not running (nothing was created).
struct SpawnRefused {
  static constexpr std::size_t kFieldsMax = 1;

  std::string_view name;
};

template <class Io, platform::FieldsOf<SpawnRefused> E>
void fields(Io& io, E& e) {
  io("name", e.name);
}

// action: a scheduled world action ran (World::at).
struct Action {
  static constexpr std::size_t kFieldsMax = 1;

  std::int64_t action = 0;  // its ActionId
};

template <class Io, platform::FieldsOf<Action> E>
void fields(Io& io, E& e) {
  io("action", e.action);
}

// violation: a property checker objected to event #event; the run stops.
struct Violation {
  static constexpr std::size_t kFieldsMax = 2;

  std::string_view what;
  std::int64_t event = 0;
};

template <class Io, platform::FieldsOf<Violation> E>
void fields(Io& io, E& e) {
  io("what", e.what);
  io("event", e.event);
}

// failure: the run itself broke (a task threw, a bound was exceeded, World::fail); it stops.
struct Failure {
  static constexpr std::size_t kFieldsMax = 1;

  std::string_view why;
};

template <class Io, platform::FieldsOf<Failure> E>
void fields(Io& io, E& e) {
  io("why", e.why);
}

// ---- the network -------------------------------------------------------------------------------
// Endpoints are RoutingIds; `message` numbers every send and typed delivery of the run, from 1.

// net.stall: the from→to link holds every message sent until until_us, then delivers them in order.
struct NetStall {
  static constexpr std::size_t kFieldsMax = 3;

  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t until_us = 0;
};

template <class Io, platform::FieldsOf<NetStall> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("to", e.to);
  io("until_us", e.until_us);
}

// net.link: a link's configuration changed.
struct NetLink {
  static constexpr std::size_t kFieldsMax = 4;

  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t latency_min_us = 0;
  std::int64_t latency_max_us = 0;
};

template <class Io, platform::FieldsOf<NetLink> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("to", e.to);
  io("latency_min_us", e.latency_min_us);
  io("latency_max_us", e.latency_max_us);
}

// net.partition: one direction of a link stops carrying messages.
struct NetPartition {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t from = 0;
  std::int64_t to = 0;
};

template <class Io, platform::FieldsOf<NetPartition> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("to", e.to);
}

// net.heal | net.disconnect | net.reconnect: both directions between a and b.
struct NetPair {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t a = 0;
  std::int64_t b = 0;
};

template <class Io, platform::FieldsOf<NetPair> E>
void fields(Io& io, E& e) {
  io("a", e.a);
  io("b", e.b);
}

// net.drop: a message was lost, at its send or at its arrival.
struct NetDrop {
  static constexpr std::size_t kFieldsMax = 4;

  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t message = 0;
  // sender_down | disconnected | partition | loss | peer_down | peer_restarted | no_endpoint |
  // inbox_full
  std::string_view why;
};

template <class Io, platform::FieldsOf<NetDrop> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("to", e.to);
  io("message", e.message);
  io("why", e.why);
}

// net.send (bytes) | net.post (a typed delivery, size_bytes 0): recorded on the sender.
struct NetSend {
  static constexpr std::size_t kFieldsMax = 3;

  std::int64_t to = 0;
  std::int64_t message = 0;
  std::int64_t size_bytes = 0;
};

template <class Io, platform::FieldsOf<NetSend> E>
void fields(Io& io, E& e) {
  io("to", e.to);
  io("message", e.message);
  io("size_bytes", e.size_bytes);
}

// net.deliver | net.deferred (a typed delivery held back while its receiver is paused):
// recorded on the receiver.
struct NetDeliver {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t from = 0;
  std::int64_t message = 0;
};

template <class Io, platform::FieldsOf<NetDeliver> E>
void fields(Io& io, E& e) {
  io("from", e.from);
  io("message", e.message);
}

// ---- the store host ----------------------------------------------------------------------------

// store.request_lost | store.reply_lost | store.refused (during an outage): one SPI call of
// process `node`.
struct StoreOp {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t node = 0;  // the caller's ProcessId
  std::string_view op;    // the SPI operation
};

template <class Io, platform::FieldsOf<StoreOp> E>
void fields(Io& io, E& e) {
  io("node", e.node);
  io("op", e.op);
}

// store.reply_delayed (held past the caller's deadline) | store.write_held (a deleting write
// applied hold_us late) | store.write_late (a write applied hold_us late: past its caller's
// deadline).
struct StoreHold {
  static constexpr std::size_t kFieldsMax = 3;

  std::int64_t node = 0;
  std::string_view op;
  std::int64_t hold_us = 0;
};

template <class Io, platform::FieldsOf<StoreHold> E>
void fields(Io& io, E& e) {
  io("node", e.node);
  io("op", e.op);
  io("hold_us", e.hold_us);
}

// store.stall_end: a stalling outage ends; the `queued` requests it held apply now, in order.
// The name of the server that hosts the Location Store (sim::StoreServerConfig::name): the `server`
// of the store events below.
inline constexpr std::string_view kLocationStoreServer = "store";

// store.outage_begin, store.outage_end, store.stall_begin: the server (StoreServerConfig::name:
// "store" hosts the Location Store, "relocation-store" the Relocation Store when it has a server of
// its own).
struct StoreOutage {
  static constexpr std::size_t kFieldsMax = 1;

  std::string_view server;
};

template <class Io, platform::FieldsOf<StoreOutage> E>
void fields(Io& io, E& e) {
  io("server", e.server);
}

struct StoreStallEnd {
  static constexpr std::size_t kFieldsMax = 2;

  std::int64_t queued = 0;
  std::string_view server;
};

template <class Io, platform::FieldsOf<StoreStallEnd> E>
void fields(Io& io, E& e) {
  io("queued", e.queued);
  io("server", e.server);
}

// store.applied: the store's own account of a Location Store write it applied — the ground truth
// the store-truth property judges by. One event per mutation of the request, in the request's
// order (`part` 1..`mutations`; an authority write's first is its authority row): its key (NUL
// separators shown as '/'), put | delete | increment, the key's StoreVersion before (0: absent)
// and after (0: deleted), the bytes a put stored, an increment's delta and the counter after it,
// and the StoreNow the request applied at.
struct StoreApplied {
  static constexpr std::size_t kFieldsMax = 11;

  std::int64_t node = 0;  // the caller's ProcessId
  std::string_view key;
  std::string_view mutation;
  std::int64_t part = 0;
  std::int64_t mutations = 0;
  std::int64_t old_version = 0;
  std::int64_t new_version = 0;
  std::string_view value;   // empty unless a put
  std::int64_t delta = 0;   // 0 unless an increment
  std::int64_t counter = 0; // the counter after an increment; 0 otherwise
  std::int64_t store_now_ms = 0;
};

template <class Io, platform::FieldsOf<StoreApplied> E>
void fields(Io& io, E& e) {
  io("node", e.node);
  io("key", e.key);
  io("mutation", e.mutation);
  io("part", e.part);
  io("mutations", e.mutations);
  io("old_version", e.old_version);
  io("new_version", e.new_version);
  io("value", e.value);
  io("delta", e.delta);
  io("counter", e.counter);
  io("store_now_ms", e.store_now_ms);
}

// Out of contract (faults/out_of_contract.h). store.clock_jumped: the server's clock (StoreNow)
// jumped forward by `by_ms`, a failover to a replica with another clock.
struct StoreClockJumped {
  static constexpr std::size_t kFieldsMax = 2;

  std::string_view server;
  std::int64_t by_ms = 0;
};

template <class Io, platform::FieldsOf<StoreClockJumped> E>
void fields(Io& io, E& e) {
  io("server", e.server);
  io("by_ms", e.by_ms);
}

// store.writes_lost: the server failed over to a replica that lagged behind: the `writes` Location
// Store writes it applied (and acknowledged) after virtual time `since_us` are gone; one
// store.write_lost per key they had changed follows.
struct StoreWritesLost {
  static constexpr std::size_t kFieldsMax = 3;

  std::string_view server;
  std::int64_t writes = 0;
  std::int64_t since_us = 0;
};

template <class Io, platform::FieldsOf<StoreWritesLost> E>
void fields(Io& io, E& e) {
  io("server", e.server);
  io("writes", e.writes);
  io("since_us", e.since_us);
}

// store.write_lost: `key` went back from StoreVersion `lost_version` (0: absent) to
// `restored_version` (0: absent), the version it held before the lost writes.
struct StoreWriteLost {
  static constexpr std::size_t kFieldsMax = 3;

  std::string_view key;
  std::int64_t lost_version = 0;
  std::int64_t restored_version = 0;
};

template <class Io, platform::FieldsOf<StoreWriteLost> E>
void fields(Io& io, E& e) {
  io("key", e.key);
  io("lost_version", e.lost_version);
  io("restored_version", e.restored_version);
}

// store.payload_applied: the simulated store's own account of a Relocation Store request that
// changed what it holds — a put that stored a payload (not one already present), or a remove that
// deleted one: the reference, the stored bytes' SHA-256 and size (a put; empty and 0 for a
// remove), the server and the StoreNow it applied at.
struct StorePayloadApplied {
  static constexpr std::size_t kFieldsMax = 7;

  std::int64_t node = 0;  // the caller's ProcessId
  std::string_view op;    // put | remove
  std::string_view reference;
  std::string_view sha256;
  std::int64_t size_bytes = 0;
  std::string_view server;
  std::int64_t store_now_ms = 0;
};

template <class Io, platform::FieldsOf<StorePayloadApplied> E>
void fields(Io& io, E& e) {
  io("node", e.node);
  io("op", e.op);
  io("reference", e.reference);
  io("sha256", e.sha256);
  io("size_bytes", e.size_bytes);
  io("server", e.server);
  io("store_now_ms", e.store_now_ms);
}

// store.payload_damaged (store-payload-damage): as `node` read the payload `reference` again, the
// store made it invisible until `invisible_until_us`, lost it, or corrupted it (its new bytes'
// SHA-256 `sha256`).
struct StorePayloadDamaged {
  static constexpr std::size_t kFieldsMax = 6;

  std::int64_t node = 0;
  std::string_view reference;
  std::string_view how;  // invisible | lost | corrupted
  std::string_view sha256;
  std::int64_t invisible_until_us = 0;
  std::string_view server;
};

template <class Io, platform::FieldsOf<StorePayloadDamaged> E>
void fields(Io& io, E& e) {
  io("node", e.node);
  io("reference", e.reference);
  io("how", e.how);
  io("sha256", e.sha256);
  io("invisible_until_us", e.invisible_until_us);
  io("server", e.server);
}

}  // namespace spotcheck::sim::events
