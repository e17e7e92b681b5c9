// The typed Instance Spot events (docs/events.md "Instance Spots", §7.2): one struct per kind,
// its fields declared once in fields(). Emitted by instance/instance_source.cpp (the requesting
// node: instance.type_selected|authority_read|request_sent|routed|resubmitted|reply_delivered) and
// instance/instance_target.cpp (the activating node: the rest); read back by
// properties/checkers/at_most_once_checker.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// instance.type_selected.
struct InstanceTypeSelected {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view id;
  std::int64_t requested = 0;
  std::string_view stable_type;
  std::string_view outcome;
};
template <class Io, platform::FieldsOf<InstanceTypeSelected> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("requested", e.requested);
  io("stable_type", e.stable_type);
  io("outcome", e.outcome);
}

// instance.authority_read.
struct InstanceAuthorityRead {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view id;
  std::string_view op_id;
  std::string_view why;
  std::string_view outcome;
  std::string_view route;
};
template <class Io, platform::FieldsOf<InstanceAuthorityRead> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("why", e.why);
  io("outcome", e.outcome);
  io("route", e.route);
}

// instance.resubmitted.
struct InstanceResubmitted {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view id;
  std::string_view op_id;
  std::string_view after;
  std::string_view from;
  std::string_view to;
};
template <class Io, platform::FieldsOf<InstanceResubmitted> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("after", e.after);
  io("from", e.from);
  io("to", e.to);
}

// instance.request_sent.
struct InstanceRequestSent {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view id;
  std::string_view op_id;
  std::string_view stable_type;
  std::string_view to;
  std::int64_t hop = 0;
};
template <class Io, platform::FieldsOf<InstanceRequestSent> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("stable_type", e.stable_type);
  io("to", e.to);
  io("hop", e.hop);
}

// instance.routed.
struct InstanceRouted {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view id;
  std::string_view op_id;
  std::string_view from;
  std::string_view to;
};
template <class Io, platform::FieldsOf<InstanceRouted> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("from", e.from);
  io("to", e.to);
}

// instance.reply_delivered.
struct InstanceReplyDelivered {
  static constexpr std::size_t kFieldsMax = 7;
  std::string_view id;
  std::string_view op_id;
  std::string_view source;
  std::string_view source_owner;
  std::int64_t source_lease_gen = 0;
  std::string_view outcome;
  std::int64_t object_gen = 0;
};
template <class Io, platform::FieldsOf<InstanceReplyDelivered> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("source", e.source);
  io("source_owner", e.source_owner);
  io("source_lease_gen", e.source_lease_gen);
  io("outcome", e.outcome);
  io("object_gen", e.object_gen);
}

// instance.outcome.
struct InstanceOutcome {
  static constexpr std::size_t kFieldsMax = 7;
  std::string_view id;
  std::string_view op_id;
  std::string_view node;
  std::string_view outcome;
  std::int64_t object_gen = 0;
  std::string_view route;
  std::string_view message;
};
template <class Io, platform::FieldsOf<InstanceOutcome> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("node", e.node);
  io("outcome", e.outcome);
  io("object_gen", e.object_gen);
  io("route", e.route);
  io("message", e.message);
}

// instance.request_received.
struct InstanceRequestReceived {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view id;
  std::string_view op_id;
  std::string_view stable_type;
  std::string_view node;
  std::string_view from;
};
template <class Io, platform::FieldsOf<InstanceRequestReceived> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("stable_type", e.stable_type);
  io("node", e.node);
  io("from", e.from);
}

// instance.first_message_run | instance.message_run.
struct InstanceMessageRun {
  static constexpr std::size_t kFieldsMax = 11;
  std::string_view id;
  std::string_view op_id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view source;
  std::string_view source_owner;
  std::int64_t source_lease_gen = 0;
  std::string_view owner;        // the host run that runs it (the Spot's owner)
  std::int64_t lease_gen = 0;
  std::int64_t now_us = 0;       // its local time as the message starts
  std::int64_t deadline_us = 0;  // its local admission deadline then (§5)
};
template <class Io, platform::FieldsOf<InstanceMessageRun> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("source", e.source);
  io("source_owner", e.source_owner);
  io("source_lease_gen", e.source_lease_gen);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("now_us", e.now_us);
  io("deadline_us", e.deadline_us);
}

// instance.payload_stored.
struct InstancePayloadStored {
  static constexpr std::size_t kFieldsMax = 7;
  std::string_view id;
  std::string_view op_id;
  std::string_view node;
  std::string_view reference;
  std::string_view sha256;
  std::int64_t size_bytes = 0;
  std::int64_t already_present = 0;
};
template <class Io, platform::FieldsOf<InstancePayloadStored> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("node", e.node);
  io("reference", e.reference);
  io("sha256", e.sha256);
  io("size_bytes", e.size_bytes);
  io("already_present", e.already_present);
}

// instance.payload_released.
struct InstancePayloadReleased {
  static constexpr std::size_t kFieldsMax = 6;
  std::string_view id;
  std::string_view op_id;
  std::string_view node;
  std::string_view reference;
  std::string_view reason;
  std::int64_t was_present = 0;
};
template <class Io, platform::FieldsOf<InstancePayloadReleased> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("node", e.node);
  io("reference", e.reference);
  io("reason", e.reason);
  io("was_present", e.was_present);
}

// instance.close_awaited.
struct InstanceCloseAwaited {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view id;
  std::string_view op_id;
  std::string_view node;
  std::int64_t object_gen = 0;
  std::string_view where;
};
template <class Io, platform::FieldsOf<InstanceCloseAwaited> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("node", e.node);
  io("object_gen", e.object_gen);
  io("where", e.where);
}

// instance.ready.
struct InstanceReady {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view reference;
};
template <class Io, platform::FieldsOf<InstanceReady> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("reference", e.reference);
}

// instance.recovered: what a restarted node did with a row of an earlier host run of it —
// action creating_cancelled | first_message_restored | completed_removed | factory_rejected |
// payload_unreadable | data_lost.
struct InstanceRecovered {
  static constexpr std::size_t kFieldsMax = 6;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view earlier_owner;
  std::int64_t earlier_lease_gen = 0;
  std::string_view action;
};
template <class Io, platform::FieldsOf<InstanceRecovered> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("earlier_owner", e.earlier_owner);
  io("earlier_lease_gen", e.earlier_lease_gen);
  io("action", e.action);
}

// instance.data_lost (§10): a restore found the stored request `reference` (SHA-256 `sha256` by
// the row's pointer) permanently missing or other bytes (`reason` missing | checksum |
// undecodable) and recorded DataLost in the row (`action` recorded | not_recorded); or a Close
// deleted such a row (`action` closed; reference, sha256 and reason empty).
struct InstanceDataLost {
  static constexpr std::size_t kFieldsMax = 7;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view reference;
  std::string_view sha256;
  std::string_view reason;
  std::string_view action;
};
template <class Io, platform::FieldsOf<InstanceDataLost> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("reference", e.reference);
  io("sha256", e.sha256);
  io("reason", e.reason);
  io("action", e.action);
}

// instance.end_of_use_recorded.
struct InstanceEndOfUseRecorded {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view reference;
};
template <class Io, platform::FieldsOf<InstanceEndOfUseRecorded> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("reference", e.reference);
}

// instance.reserve_lost.
struct InstanceReserveLost {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view id;
  std::string_view op_id;
  std::string_view node;
};
template <class Io, platform::FieldsOf<InstanceReserveLost> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("node", e.node);
}

// instance.reserved.
struct InstanceReserved {
  static constexpr std::size_t kFieldsMax = 7;
  std::string_view id;
  std::string_view op_id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view reference;
};
template <class Io, platform::FieldsOf<InstanceReserved> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("op_id", e.op_id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("reference", e.reference);
}

// instance.factory_run.
struct InstanceFactoryRun {
  static constexpr std::size_t kFieldsMax = 9;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view stable_type;
  std::string_view node;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view op_id;
  std::int64_t now_us = 0;       // the node's local time as the factory starts
  std::int64_t deadline_us = 0;  // the host's local admission deadline then (§5)
};
template <class Io, platform::FieldsOf<InstanceFactoryRun> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("stable_type", e.stable_type);
  io("node", e.node);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("op_id", e.op_id);
  io("now_us", e.now_us);
  io("deadline_us", e.deadline_us);
}

// instance.closing.
struct InstanceClosing {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view node;
};
template <class Io, platform::FieldsOf<InstanceClosing> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("node", e.node);
}

// instance.reincarnating: Close with Reincarnate closed incarnation `object_gen`; the next one is
// activated here by a request of this node's own with `op_id`.
struct InstanceReincarnating {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view op_id;
};
template <class Io, platform::FieldsOf<InstanceReincarnating> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("op_id", e.op_id);
}

// instance.closed.
struct InstanceClosed {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view node;
  std::string_view outcome;
};
template <class Io, platform::FieldsOf<InstanceClosed> E>
void fields(Io& io, E& e) {
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("node", e.node);
  io("outcome", e.outcome);
}

}  // namespace spotcheck::location::events
