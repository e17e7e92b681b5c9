// One authority.* event (docs/events.md "Authority operations") as the checkers judge it.
// Text members view the event's fields: valid only while the event is being judged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/authority_transitions.h"
#include "properties/common/host_run.h"
#include "properties/common/store_clock.h"
#include "sim/trace/trace_event.h"

namespace spotcheck::properties {

struct AuthorityEvent {
  model::AuthorityOp op = model::AuthorityOp::kReserve;
  std::string_view kind;  // actor | spot
  std::string_view id;
  std::int64_t object_gen = 0;
  std::int64_t owner_gen = 0;
  HostRunRef owner;        // the row's owner after the change (removed row's for abort/delete)
  std::string_view state;  // reserved | active (after; removed row's for abort/delete)
  std::string_view object_kind;
  std::string_view stable_type;
  std::string_view mesh;
  std::string_view rid;
  std::string_view outcome;
  std::string_view cause;
  std::int64_t version = 0;
  std::int64_t store_now_ms = 0;
  bool resolved = false;
  HostRunRef by;  // the host run that performed the operation
  std::string_view via;  // explicit | sweep
  std::optional<std::int64_t> sent_us;  // the performer's local time as the write was sent
  // authority.new_owner only.
  HostRunRef prev_owner;
  std::int64_t prev_owner_gen = 0;
  std::int64_t prev_object_gen = 0;  // the row's ObjectGeneration before the change
  std::string_view prev_mesh;
  std::string_view prev_rid;

  bool applied() const { return outcome == "applied"; }
  bool indeterminate() const { return outcome == "indeterminate"; }
  bool removes_row() const { return op == model::AuthorityOp::kAbort || op == model::AuthorityOp::kDelete; }
  bool sweep() const { return via == "sweep"; }
  // reserved | active as the model's state.
  std::optional<model::AuthorityState> row_state() const;
  // When the write applied, in store ms (exact for resolved=0, at-or-before for resolved=1).
  ApplyBounds bounds() const {
    return resolved ? ApplyBounds::at_or_before(store_now_ms) : ApplyBounds::exact(store_now_ms);
  }
  std::string object() const;  // map key (describe.h object_key)
  std::string describe_object() const;
};

// The operation of an authority.* kind, or nullopt for any other kind.
std::optional<model::AuthorityOp> authority_op_of(std::string_view kind);

// An authority.* event decoded through its typed struct (impl/location/events/authority_events.h):
// `change`, or the `problem` of a malformed event (a missing field).
struct ParsedAuthority {
  std::optional<AuthorityEvent> change;
  std::string problem;
};
// nullopt for an event of any other kind.
std::optional<ParsedAuthority> authority_event_of(const sim::TraceEvent& event);

// "authority.commit #12 (object_gen 3, owner_gen 1, host run …)" for messages.
std::string describe_write(const AuthorityEvent& event, std::uint64_t index);

}  // namespace spotcheck::properties
