// The typed authority.* events (docs/events.md "Authority operations"): one struct for the six
// kinds authority.reserve|commit|abort|preserve|new_owner|delete, its fields declared once, and
// capacity.changed. The
// emitter (authority/authority_ops.cpp) and the property checkers (properties/common/
// authority_event.cpp) both go through fields() below, so the two can never disagree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// The row before an owner change (authority.new_owner only).
struct AuthorityPrevious {
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t owner_gen = 0;
  std::int64_t object_gen = 0;
  std::string_view mesh;
  std::string_view rid;
};

struct AuthorityChanged {
  static constexpr std::size_t kFieldsMax = 32;

  std::string_view kind;  // actor | spot
  std::string_view id;
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  std::string_view owner;  // the row's owner after the change (removed row's for abort/delete)
  std::int64_t lease_gen = 0;
  std::string_view state;  // reserved | active
  std::string_view object_kind;
  std::string_view stable_type;
  std::string_view mesh;
  std::string_view rid;
  std::string_view outcome;  // applied | conflict | indeterminate | a store error kind
  std::string_view cause;
  std::int64_t version = 0;       // StoreVersion after an applied write, else 0
  std::int64_t store_now_ms = 0;  // StoreNow of the write's answer, else 0
  std::int64_t resolved = 0;      // 1: an Indeterminate write established applied by a re-read
  std::string_view by_owner;      // the host run that performed the operation
  std::int64_t by_lease_gen = 0;
  std::string_view via;  // explicit | sweep
  bool has_sent = false;  // a write was sent (absent when the operation failed before sending)
  std::int64_t sent_us = 0;  // the performing node's local time as the write was sent
  bool has_previous = false;
  AuthorityPrevious previous;
};

template <class Io, platform::FieldsOf<AuthorityChanged> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("owner_gen", e.owner_gen);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("state", e.state);
  io("object_kind", e.object_kind);
  io("stable_type", e.stable_type);
  io("mesh", e.mesh);
  io("rid", e.rid);
  io("outcome", e.outcome);
  io("cause", e.cause);
  io("version", e.version);
  io("store_now_ms", e.store_now_ms);
  io("resolved", e.resolved);
  io("by_owner", e.by_owner);
  io("by_lease_gen", e.by_lease_gen);
  io("via", e.via);
  if (io.group(e.has_sent, "sent_us")) {
    io("sent_us", e.sent_us);
  }
  if (io.group(e.has_previous, "prev_owner")) {
    io("prev_owner", e.previous.owner);
    io("prev_lease_gen", e.previous.lease_gen);
    io("prev_owner_gen", e.previous.owner_gen);
    io("prev_object_gen", e.previous.object_gen);
    io("prev_mesh", e.previous.mesh);
    io("prev_rid", e.previous.rid);
  }
}

// capacity.changed: one capacity counter moved by an applied authority write (value -1 when the
// write was established by a re-read, which does not see the counter's new value).
struct CapacityChanged {
  static constexpr std::size_t kFieldsMax = 8;
  std::string_view mesh;
  std::string_view rid;
  std::string_view counter;  // the counter's key preimage
  std::string_view spot_kind;
  std::string_view stable_type;
  std::int64_t delta = 0;
  std::int64_t value = 0;
  std::int64_t store_now_ms = 0;
};
template <class Io, platform::FieldsOf<CapacityChanged> E>
void fields(Io& io, E& e) {
  io("mesh", e.mesh);
  io("rid", e.rid);
  io("counter", e.counter);
  io("spot_kind", e.spot_kind);
  io("stable_type", e.stable_type);
  io("delta", e.delta);
  io("value", e.value);
  io("store_now_ms", e.store_now_ms);
}

// capacity.refused: the store refused an authority write because one bounded capacity counter
// would pass the node's limit (§3.3: a full node refuses; nothing changed). Names that counter.
struct CapacityRefused {
  static constexpr std::size_t kFieldsMax = 7;
  std::string_view mesh;
  std::string_view rid;
  std::string_view counter;  // actors | spots | spot-type
  std::string_view spot_kind;
  std::string_view stable_type;
  std::int64_t delta = 0;
  std::int64_t store_now_ms = 0;
};
template <class Io, platform::FieldsOf<CapacityRefused> E>
void fields(Io& io, E& e) {
  io("mesh", e.mesh);
  io("rid", e.rid);
  io("counter", e.counter);
  io("spot_kind", e.spot_kind);
  io("stable_type", e.stable_type);
  io("delta", e.delta);
  io("store_now_ms", e.store_now_ms);
}

}  // namespace spotcheck::location::events
