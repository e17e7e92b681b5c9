#include "properties/common/authority_event.h"

#include "impl/location/events/authority_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"

namespace spotcheck::properties {

using model::AuthorityOp;

std::optional<model::AuthorityOp> authority_op_of(std::string_view kind) {
  if (kind.size() < 10 || kind[0] != 'a' || kind.substr(0, 10) != "authority.") {
    return std::nullopt;
  }
  if (kind == kinds::kAuthorityReserve) {
    return AuthorityOp::kReserve;
  }
  if (kind == kinds::kAuthorityCommit) {
    return AuthorityOp::kCommit;
  }
  if (kind == kinds::kAuthorityAbort) {
    return AuthorityOp::kAbort;
  }
  if (kind == kinds::kAuthorityPreserve) {
    return AuthorityOp::kPreserve;
  }
  if (kind == kinds::kAuthorityNewOwner) {
    return AuthorityOp::kNewOwner;
  }
  if (kind == kinds::kAuthorityDelete) {
    return AuthorityOp::kDelete;
  }
  return std::nullopt;
}

std::optional<model::AuthorityState> AuthorityEvent::row_state() const {
  if (state == "reserved") {
    return model::AuthorityState::kReserved;
  }
  if (state == "active") {
    return model::AuthorityState::kActive;
  }
  return std::nullopt;
}

std::string AuthorityEvent::object() const {
  return object_key(kind, id);
}

std::string AuthorityEvent::describe_object() const {
  return properties::describe_object(kind, id);
}

std::optional<ParsedAuthority> authority_event_of(const sim::TraceEvent& event) {
  const std::optional<AuthorityOp> op = authority_op_of(event.kind);
  if (!op.has_value()) {
    return std::nullopt;
  }
  location::events::AuthorityChanged typed;
  const platform::Decoded decoded = platform::decode_event(event.fields, typed);
  if (!decoded.ok) {
    return ParsedAuthority{std::nullopt, std::string(event.kind) + " #" + std::to_string(event.index) +
                                             " lacks field '" + decoded.missing + "' (docs/events.md)"};
  }
  if (*op == AuthorityOp::kNewOwner && !typed.has_previous) {
    return ParsedAuthority{std::nullopt, std::string(event.kind) + " #" + std::to_string(event.index) +
                                             " lacks field 'prev_owner' (docs/events.md)"};
  }
  AuthorityEvent parsed;
  parsed.op = *op;
  parsed.kind = typed.kind;
  parsed.id = typed.id;
  parsed.object_gen = typed.object_gen;
  parsed.owner_gen = typed.owner_gen;
  parsed.owner = HostRunRef{typed.owner, typed.lease_gen};
  parsed.state = typed.state;
  parsed.object_kind = typed.object_kind;
  parsed.stable_type = typed.stable_type;
  parsed.mesh = typed.mesh;
  parsed.rid = typed.rid;
  parsed.outcome = typed.outcome;
  parsed.cause = typed.cause;
  parsed.version = typed.version;
  parsed.store_now_ms = typed.store_now_ms;
  parsed.resolved = typed.resolved != 0;
  parsed.by = HostRunRef{typed.by_owner, typed.by_lease_gen};
  parsed.via = typed.via;
  if (typed.has_sent) {
    parsed.sent_us = typed.sent_us;
  }
  if (*op == AuthorityOp::kNewOwner) {
    parsed.prev_owner = HostRunRef{typed.previous.owner, typed.previous.lease_gen};
    parsed.prev_owner_gen = typed.previous.owner_gen;
    parsed.prev_object_gen = typed.previous.object_gen;
    parsed.prev_mesh = typed.previous.mesh;
    parsed.prev_rid = typed.previous.rid;
  }
  return ParsedAuthority{parsed, {}};
}

std::string describe_write(const AuthorityEvent& event, std::uint64_t index) {
  std::string out = model::to_string(event.op);
  out += " " + event_ref(index) + " (object_gen " + std::to_string(event.object_gen) + ", owner_gen " +
         std::to_string(event.owner_gen) + ", owner " + describe(event.owner) + ", by " + describe(event.by);
  if (event.resolved) {
    out += ", resolved by re-read";
  }
  out += ")";
  return out;
}

}  // namespace spotcheck::properties
