// The typed creation, find and close events (docs/creation.md, docs/events.md "Creation"): one
// struct per kind, its fields declared once in fields(). Emitted by creation/creation_client.cpp
// (the source: creation.requested|command_sent|reply_delivered|result_reread|abandoned_cancelled|
// finished), creation/creation_target.cpp (the target: creation.command_received|verify_failed|
// factory_run|factory_returned|result|reply_sent), creation/result_store.cpp
// (creation.result_expired), manager/manager.cpp (find.result) and find/close.cpp (close.*);
// read back by properties/checkers/creation_checker.cpp. Every creation.* event of one operation
// carries its OperationId as op_id; creation.requested|command_sent|finished|reply_delivered|result also carry
// source_gen, the source host run's LeaseGeneration: (source_gen, op_id) names the request (§7;
// LeaseGenerations are never reused, so the source RID is implied).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// creation.requested.
struct CreationRequested {
  static constexpr std::size_t kFieldsMax = 9;
  std::string_view op_id;
  std::int64_t source_gen = 0;  // the source host run's LeaseGeneration (the request identifier, §7)
  std::string_view mode;
  std::string_view kind;
  std::string_view object_kind;
  std::string_view id;
  std::string_view stable_type;
  std::int64_t deadline_us = 0;
  std::string_view mesh;  // the Mesh it places in (§7 InMesh)
};
template <class Io, platform::FieldsOf<CreationRequested> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("source_gen", e.source_gen);
  io("mode", e.mode);
  io("kind", e.kind);
  io("object_kind", e.object_kind);
  io("id", e.id);
  io("stable_type", e.stable_type);
  io("deadline_us", e.deadline_us);
  io("mesh", e.mesh);
}

// creation.finished.
struct CreationFinished {
  static constexpr std::size_t kFieldsMax = 8;
  std::string_view op_id;
  std::int64_t source_gen = 0;  // the source host run's LeaseGeneration (the request identifier, §7)
  std::string_view mode;
  std::string_view kind;
  std::string_view id;
  std::string_view outcome;
  std::int64_t object_gen = 0;
  std::int64_t from_store = 0;
};
template <class Io, platform::FieldsOf<CreationFinished> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("source_gen", e.source_gen);
  io("mode", e.mode);
  io("kind", e.kind);
  io("id", e.id);
  io("outcome", e.outcome);
  io("object_gen", e.object_gen);
  io("from_store", e.from_store);
}

// creation.result_reread.
struct CreationResultReread {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view op_id;
  std::string_view outcome;
  std::string_view id;
};
template <class Io, platform::FieldsOf<CreationResultReread> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("outcome", e.outcome);
  io("id", e.id);
}

// creation.abandoned_cancelled.
struct CreationAbandonedCancelled {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view op_id;
  std::string_view outcome;
};
template <class Io, platform::FieldsOf<CreationAbandonedCancelled> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("op_id", e.op_id);
  io("outcome", e.outcome);
}

// creation.command_sent.
struct CreationCommandSent {
  static constexpr std::size_t kFieldsMax = 8;
  std::string_view op_id;
  std::int64_t source_gen = 0;  // the source host run's LeaseGeneration (the request identifier, §7)
  std::int64_t cmd = 0;
  std::string_view to;
  std::int64_t request = 0;
  std::int64_t attempt = 0;
  std::string_view id;
  std::int64_t object_gen = 0;
};
template <class Io, platform::FieldsOf<CreationCommandSent> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("source_gen", e.source_gen);
  io("cmd", e.cmd);
  io("to", e.to);
  io("request", e.request);
  io("attempt", e.attempt);
  io("id", e.id);
  io("object_gen", e.object_gen);
}

// creation.reply_delivered.
struct CreationReplyDelivered {
  static constexpr std::size_t kFieldsMax = 6;
  std::string_view op_id;
  std::int64_t source_gen = 0;  // the source host run's LeaseGeneration (the request identifier, §7)
  std::string_view outcome;
  std::int64_t request = 0;
  std::string_view id;
  std::int64_t object_gen = 0;
};
template <class Io, platform::FieldsOf<CreationReplyDelivered> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("source_gen", e.source_gen);
  io("outcome", e.outcome);
  io("request", e.request);
  io("id", e.id);
  io("object_gen", e.object_gen);
}

// creation.command_received.
struct CreationCommandReceived {
  static constexpr std::size_t kFieldsMax = 6;
  std::string_view op_id;
  std::int64_t cmd = 0;
  std::string_view from;
  std::int64_t request = 0;
  std::string_view id;
  std::int64_t object_gen = 0;
};
template <class Io, platform::FieldsOf<CreationCommandReceived> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("cmd", e.cmd);
  io("from", e.from);
  io("request", e.request);
  io("id", e.id);
  io("object_gen", e.object_gen);
}

// creation.verify_failed.
struct CreationVerifyFailed {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view op_id;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view reason;
};
template <class Io, platform::FieldsOf<CreationVerifyFailed> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("reason", e.reason);
}

// creation.factory_run.
struct CreationFactoryRun {
  static constexpr std::size_t kFieldsMax = 10;
  std::string_view kind;
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
template <class Io, platform::FieldsOf<CreationFactoryRun> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
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

// creation.factory_returned.
struct CreationFactoryReturned {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view op_id;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view decision;
};
template <class Io, platform::FieldsOf<CreationFactoryReturned> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("decision", e.decision);
}

// creation.result.
struct CreationResult {
  static constexpr std::size_t kFieldsMax = 8;
  std::string_view op_id;
  std::int64_t source_gen = 0;  // the source host run's LeaseGeneration (the request identifier, §7)
  std::string_view outcome;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;
  std::string_view owner;
  std::int64_t lease_gen = 0;
};
template <class Io, platform::FieldsOf<CreationResult> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("source_gen", e.source_gen);
  io("outcome", e.outcome);
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
}

// creation.reply_sent.
struct CreationReplySent {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view op_id;
  std::string_view outcome;
  std::string_view to;
  std::int64_t request = 0;
  std::int64_t resent = 0;
};
template <class Io, platform::FieldsOf<CreationReplySent> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("outcome", e.outcome);
  io("to", e.to);
  io("request", e.request);
  io("resent", e.resent);
}

// close.requested.
struct CloseRequested {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view op_id;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;
};
template <class Io, platform::FieldsOf<CloseRequested> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
}

// close.finished.
struct CloseFinished {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view op_id;
  std::string_view id;
  std::string_view outcome;
};
template <class Io, platform::FieldsOf<CloseFinished> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("id", e.id);
  io("outcome", e.outcome);
}

// close.reply_delivered.
struct CloseReplyDelivered {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view op_id;
  std::string_view outcome;
  std::int64_t request = 0;
};
template <class Io, platform::FieldsOf<CloseReplyDelivered> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("outcome", e.outcome);
  io("request", e.request);
}

// close.result.
struct CloseResult {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view op_id;
  std::string_view outcome;
  std::string_view kind;
  std::string_view id;
  std::int64_t object_gen = 0;
};
template <class Io, platform::FieldsOf<CloseResult> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("outcome", e.outcome);
  io("kind", e.kind);
  io("id", e.id);
  io("object_gen", e.object_gen);
}

// find.result.
struct FindResult {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view kind;
  std::string_view id;
  std::string_view outcome;
  std::int64_t object_gen = 0;
};
template <class Io, platform::FieldsOf<FindResult> E>
void fields(Io& io, E& e) {
  io("kind", e.kind);
  io("id", e.id);
  io("outcome", e.outcome);
  io("object_gen", e.object_gen);
}

// creation.result_expired.
struct CreationResultExpired {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view op_id;
  std::int64_t retain_until_ms = 0;
  std::int64_t store_now_ms = 0;
  std::int64_t deleted = 0;
};
template <class Io, platform::FieldsOf<CreationResultExpired> E>
void fields(Io& io, E& e) {
  io("op_id", e.op_id);
  io("retain_until_ms", e.retain_until_ms);
  io("store_now_ms", e.store_now_ms);
  io("deleted", e.deleted);
}

}  // namespace spotcheck::location::events
