#include "properties/common/authority_event.h"

#include "impl/location/events/event_names.h"
#include "properties/common/describe.h"
#include "properties/common/field_reader.h"

namespace spotcheck::properties {

namespace events = location::events;
using model::AuthorityOp;

std::optional<model::AuthorityOp> authority_op_of(std::string_view kind) {
  if (kind.size() < 10 || kind[0] != 'a' || kind.substr(0, 10) != "authority.") {
    return std::nullopt;
  }
  if (kind == events::kAuthorityReserve) {
    return AuthorityOp::kReserve;
  }
  if (kind == events::kAuthorityCommit) {
    return AuthorityOp::kCommit;
  }
  if (kind == events::kAuthorityAbort) {
    return AuthorityOp::kAbort;
  }
  if (kind == events::kAuthorityPreserve) {
    return AuthorityOp::kPreserve;
  }
  if (kind == events::kAuthorityNewOwner) {
    return AuthorityOp::kNewOwner;
  }
  if (kind == events::kAuthorityDelete) {
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

std::optional<AuthorityEvent> parse_authority_event(const sim::TraceEvent& event, model::AuthorityOp op,
                                                    std::string& problem) {
  FieldReader fields(event);
  AuthorityEvent parsed;
  parsed.op = op;
  parsed.kind = fields.text("kind");
  parsed.id = fields.text("id");
  parsed.object_gen = fields.number("object_gen");
  parsed.owner_gen = fields.number("owner_gen");
  parsed.owner = HostRunRef{fields.text("owner"), fields.number("lease_gen")};
  parsed.state = fields.text("state");
  parsed.object_kind = fields.text("object_kind");
  parsed.stable_type = fields.text("stable_type");
  parsed.mesh = fields.text("mesh");
  parsed.rid = fields.text("rid");
  parsed.outcome = fields.text("outcome");
  parsed.cause = fields.text("cause");
  parsed.version = fields.number("version");
  parsed.store_now_ms = fields.number("store_now_ms");
  parsed.resolved = fields.number("resolved") != 0;
  parsed.by = HostRunRef{fields.text("by_owner"), fields.number("by_lease_gen")};
  parsed.via = fields.text("via");
  if (op == AuthorityOp::kNewOwner) {
    parsed.prev_owner = HostRunRef{fields.text("prev_owner"), fields.number("prev_lease_gen")};
    parsed.prev_owner_gen = fields.number("prev_owner_gen");
    parsed.prev_mesh = fields.text("prev_mesh");
    parsed.prev_rid = fields.text("prev_rid");
  }
  if (!fields.ok()) {
    problem = fields.problem();
    return std::nullopt;
  }
  return parsed;
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
