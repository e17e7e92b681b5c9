// The typed events of the object runtime (objects/, docs/events.md "Objects"): the instances a host
// run hosts, their turns (messages and timer callbacks), the regular messages a node sends, and
// the location cache (§7.3). One struct per kind, its fields declared once in fields().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// object.activated | object.deactivated: an instance starts / stops being hosted by this host run.
struct ObjectHosted {
  static constexpr std::size_t kFieldsMax = 8;
  std::string_view kind;  // actor | spot
  std::string_view id;
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  std::string_view stable_type;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view reason;  // activated: created; deactivated: removed | replaced
};
template <class Io, platform::FieldsOf<ObjectHosted> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("owner_gen", e.owner_gen);
  io("stable_type", e.stable_type);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("reason", e.reason);
}

// object.turn: one turn of an instance started (§5 admission passed): a message or a timer
// callback. For a message, the sender's host run and its sequence number for this object.
struct ObjectTurn {
  static constexpr std::size_t kFieldsMax = 15;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;   // the instance's
  std::int64_t owner_gen = 0;    // the instance's AuthorityOwnerGeneration
  std::string_view turn;         // message | timer
  std::string_view source_owner; // message: the sender's host run; timer: the one that started it
  std::int64_t source_lease_gen = 0;
  std::int64_t stream = 0;       // message: the sender's stream; timer: its timer stream
  std::int64_t seq = 0;          // message: the sender's number; timer: the timer's number
  std::int64_t message_gen = 0;  // message: the ObjectGeneration it was sent to
  std::string_view op_id;
  std::string_view owner;        // the host run that runs the turn
  std::int64_t lease_gen = 0;
  std::int64_t now_us = 0;       // its local time as the turn starts
  std::int64_t deadline_us = 0;  // its local admission deadline then (§5)
};
template <class Io, platform::FieldsOf<ObjectTurn> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("owner_gen", e.owner_gen);
  io("turn", e.turn);
  io("source_owner", e.source_owner);
  io("source_lease_gen", e.source_lease_gen);
  io("stream", e.stream);
  io("seq", e.seq);
  io("message_gen", e.message_gen);
  io("op_id", e.op_id);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("now_us", e.now_us);
  io("deadline_us", e.deadline_us);
}

// object.turn_refused: a queued message or a due timer did not start (its outcome says why).
// object.message_refused: a message was answered without being queued (not_here, stale_generation,
// no_handler).
struct ObjectRefused {
  static constexpr std::size_t kFieldsMax = 11;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;  // the generation the message / timer was for
  std::string_view turn;        // message | timer
  std::string_view source_owner;  // message: the sender's host run; timer: the one that started it
  std::int64_t source_lease_gen = 0;
  std::int64_t stream = 0;      // message: the sender's stream; timer: its timer stream
  std::int64_t seq = 0;
  std::string_view outcome;     // a MessageOutcome
  std::string_view owner;
  std::int64_t lease_gen = 0;
};
template <class Io, platform::FieldsOf<ObjectRefused> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("turn", e.turn);
  io("source_owner", e.source_owner);
  io("source_lease_gen", e.source_lease_gen);
  io("stream", e.stream);
  io("seq", e.seq);
  io("outcome", e.outcome);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
}

// object.timer_started: a turn of the instance started timer callback `seq` of its timer stream
// (the host run and incarnation that started it: the timer's identity, kept when the object
// moves), due `after_us` later.
struct ObjectTimerStarted {
  static constexpr std::size_t kFieldsMax = 10;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view source_owner;  // the host run that started it
  std::int64_t source_lease_gen = 0;
  std::int64_t stream = 0;        // its timer stream (the starting instance's)
  std::int64_t seq = 0;           // its number in that stream
  std::int64_t after_us = 0;
  std::string_view owner;         // the host run it is pending on
  std::int64_t lease_gen = 0;
};
template <class Io, platform::FieldsOf<ObjectTimerStarted> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("source_owner", e.source_owner);
  io("source_lease_gen", e.source_lease_gen);
  io("stream", e.stream);
  io("seq", e.seq);
  io("after_us", e.after_us);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
}

// object.message_sent: a sender sent message `seq` of its host run to the object, over the route
// the cache held (`via` cache) or a fresh read showed (`via` store).
struct ObjectMessageSent {
  static constexpr std::size_t kFieldsMax = 12;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  std::int64_t stream = 0;
  std::int64_t seq = 0;
  std::string_view op_id;
  std::string_view to;
  std::string_view via;  // cache | store
  std::int64_t request = 0;
};
template <class Io, platform::FieldsOf<ObjectMessageSent> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("owner_gen", e.owner_gen);
  io("stream", e.stream);
  io("seq", e.seq);
  io("op_id", e.op_id);
  io("to", e.to);
  io("via", e.via);
  io("request", e.request);
}

// object.message_answered: how a send ended at the sender: a MessageOutcome, or no_reply (the
// deadline passed: it may have run; it is never sent again), or a lookup failure.
struct ObjectMessageAnswered {
  static constexpr std::size_t kFieldsMax = 8;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view kind;
  std::string_view id;
  std::int64_t stream = 0;
  std::int64_t seq = 0;
  std::string_view op_id;
  std::string_view outcome;
};
template <class Io, platform::FieldsOf<ObjectMessageAnswered> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("kind", e.kind);
  io("id", e.id);
  io("stream", e.stream);
  io("seq", e.seq);
  io("op_id", e.op_id);
  io("outcome", e.outcome);
}

// cache.filled: a Ready location entered the cache (§7.3). The entry's bound `expires_us` (local)
// is the earlier of now + RouteCacheMaxAge and the owner's last admission time as the owner-lease
// read shows it: read_before_us + (lease_expires_ms - store_now_ms) * 1000 - fencing margin.
struct RouteCacheFilled {
  static constexpr std::size_t kFieldsMax = 18;
  std::string_view owner;  // the caching host run
  std::int64_t lease_gen = 0;
  std::string_view kind;
  std::string_view id;
  std::string_view state;  // the row's allocation state: only ready is ever cached
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  std::int64_t store_version = 0;
  std::string_view route;  // the owner's RoutingId (hex)
  std::string_view target_owner;
  std::int64_t target_lease_gen = 0;
  std::int64_t lease_expires_ms = 0;  // the owner lease record's ExpiresAt as read
  std::int64_t store_now_ms = 0;      // StoreNow of that read
  std::int64_t read_before_us = 0;    // local time before the lease read was sent
  std::int64_t now_us = 0;
  std::int64_t max_age_us = 0;
  std::int64_t margin_us = 0;
  std::int64_t expires_us = 0;
};
template <class Io, platform::FieldsOf<RouteCacheFilled> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("kind", e.kind);
  io("id", e.id);
  io("state", e.state);
  io("object_gen", e.object_gen);
  io("owner_gen", e.owner_gen);
  io("store_version", e.store_version);
  io("route", e.route);
  io("target_owner", e.target_owner);
  io("target_lease_gen", e.target_lease_gen);
  io("lease_expires_ms", e.lease_expires_ms);
  io("store_now_ms", e.store_now_ms);
  io("read_before_us", e.read_before_us);
  io("now_us", e.now_us);
  io("max_age_us", e.max_age_us);
  io("margin_us", e.margin_us);
  io("expires_us", e.expires_us);
}

// cache.hit: the cache answered with an entry; cache.dropped: an entry left before its bound
// (reason: not_here | stale_generation | not_admitted | higher_version | no_reply).
struct RouteCacheUse {
  static constexpr std::size_t kFieldsMax = 8;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view kind;
  std::string_view id;
  std::int64_t store_version = 0;
  std::int64_t now_us = 0;
  std::int64_t expires_us = 0;
  std::string_view reason;  // hit: empty
};
template <class Io, platform::FieldsOf<RouteCacheUse> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("kind", e.kind);
  io("id", e.id);
  io("store_version", e.store_version);
  io("now_us", e.now_us);
  io("expires_us", e.expires_us);
  io("reason", e.reason);
}

}  // namespace spotcheck::location::events
