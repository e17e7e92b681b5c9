#include "tests/properties/event_script.h"

#include <cassert>

#include "impl/location/events/authority_events.h"
#include "impl/location/events/lease_events.h"
#include "impl/platform/event_fields.h"

namespace spotcheck::properties::testing {

// Through the typed struct the protocol emits (impl/location/events/authority_events.h), so the
// script's events have exactly the protocol's fields in the protocol's order.
std::vector<F> authority_fields(const Write& write) {
  const Row& row = write.row;
  location::events::AuthorityChanged e;
  e.kind = row.kind;
  e.id = row.id;
  e.object_gen = row.object_gen;
  e.owner_gen = row.owner_gen;
  e.owner = row.owner;
  e.lease_gen = row.lease_gen;
  e.state = row.state;
  e.object_kind = row.object_kind;
  e.stable_type = row.stable_type;
  e.mesh = row.mesh;
  e.rid = row.rid;
  e.outcome = write.outcome;
  e.cause = write.cause;
  e.version = write.outcome == "applied" ? write.version : 0;
  e.store_now_ms = write.store_now_ms;
  e.resolved = write.resolved ? 1 : 0;
  e.by_owner = write.by_owner.empty() ? row.owner : write.by_owner;
  e.by_lease_gen = write.by_owner.empty() ? row.lease_gen : write.by_lease_gen;
  e.via = write.via;
  e.has_sent = write.sent_us.has_value();
  e.sent_us = write.sent_us.value_or(0);
  e.has_previous = write.op == "new_owner";
  e.previous = location::events::AuthorityPrevious{write.prev_owner, write.prev_lease_gen, write.prev_owner_gen,
                                                   row.object_gen,    write.prev_mesh,      write.prev_rid};
  return owned_fields(e);
}

std::vector<F> owned(std::span<const platform::Field> fields) {
  std::vector<F> out;
  for (const platform::Field& field : fields) {
    out.push_back(field.is_text ? F::s(std::string(field.key), std::string(field.text))
                                : F::n(std::string(field.key), field.number));
  }
  return out;
}

std::optional<std::string> Script::feed(TimeUs t_us, std::int32_t node, const std::string& kind, std::vector<F> fields) {
  assert(t_us >= _last_time_us);  // a trace never goes back in time
  _last_time_us = t_us;
  std::vector<platform::Field> views;
  views.reserve(fields.size());
  for (const F& field : fields) {
    views.push_back(field.is_text ? platform::Field::str(field.key, field.text) : platform::Field::num(field.key, field.number));
  }
  sim::TraceEvent event;
  event.index = _next_index++;
  event.time_us = t_us;
  event.node = node;
  event.task = node >= 0 ? 1 : 0;
  event.kind = kind;
  event.fields = views;
  return _observer.on_event(event);
}

std::optional<std::string> Script::registered(TimeUs t_us, std::int32_t node, const std::string& owner,
                                              std::int64_t lease_gen, std::int64_t expires_ms, std::int64_t deadline_us,
                                              const std::string& kind) {
  return feed(t_us, node, kind,
              owned_fields(location::events::LeaseAdopted{owner, lease_gen, expires_ms, store_ms(t_us), deadline_us,
                                                          /*version=*/1, /*resolved=*/0, /*local_before_us=*/t_us,
                                                          kScriptFencingMarginUs}));
}

std::optional<std::string> Script::renewed(TimeUs t_us, std::int32_t node, const std::string& owner,
                                           std::int64_t lease_gen, std::int64_t expires_ms) {
  return registered(t_us, node, owner, lease_gen, expires_ms, 0, "lease.renewed");
}

std::optional<std::string> Script::lost(TimeUs t_us, std::int32_t node, const std::string& owner, std::int64_t lease_gen) {
  return feed(t_us, node, "lease.lost", owned_fields(location::events::LeaseLost{owner, lease_gen, "test", t_us}));
}

std::optional<std::string> Script::write(TimeUs t_us, std::int32_t node, Write write) {
  if (write.store_now_ms == 0) {
    write.store_now_ms = store_ms(t_us);
  }
  return feed(t_us, node, "authority." + write.op, authority_fields(write));
}

std::optional<std::string> Script::write_with_capacity(TimeUs t_us, std::int32_t node, Write write) {
  if (auto problem = this->write(t_us, node, write)) {
    return problem;
  }
  if (write.outcome != "applied") {
    return std::nullopt;
  }
  const Row& row = write.row;
  auto emit = [&](const std::string& mesh, const std::string& rid, std::int64_t sign) -> std::optional<std::string> {
    if (row.object_kind == "actor") {
      return capacity(t_us, node, mesh, rid, "actors", sign, write.resolved ? -1 : (sign > 0 ? 1 : 0));
    }
    if (auto problem = capacity(t_us, node, mesh, rid, "spots", sign, write.resolved ? -1 : (sign > 0 ? 1 : 0))) {
      return problem;
    }
    return capacity(t_us, node, mesh, rid, "spot-type", sign, write.resolved ? -1 : (sign > 0 ? 1 : 0),
                    row.object_kind, row.stable_type);
  };
  if (write.op == "reserve") {
    return emit(row.mesh, row.rid, +1);
  }
  if (write.op == "abort" || write.op == "delete") {
    return emit(row.mesh, row.rid, -1);
  }
  if (write.op == "new_owner" && (write.prev_mesh != row.mesh || write.prev_rid != row.rid)) {
    if (auto problem = emit(write.prev_mesh, write.prev_rid, -1)) {
      return problem;
    }
    return emit(row.mesh, row.rid, +1);
  }
  return std::nullopt;
}

std::optional<std::string> Script::capacity(TimeUs t_us, std::int32_t node, const std::string& mesh,
                                            const std::string& rid, const std::string& counter, std::int64_t delta,
                                            std::int64_t value, const std::string& spot_kind,
                                            const std::string& stable_type) {
  return feed(t_us, node, "capacity.changed",
              owned_fields(location::events::CapacityChanged{mesh, rid, counter, spot_kind, stable_type, delta, value,
                                                             store_ms(t_us)}));
}

std::optional<std::string> Script::work(TimeUs t_us, std::int32_t node, const Row& row) {
  return feed(t_us, node, "object.work",
              {F::s("id", row.id), F::s("owner", row.owner), F::n("lease_gen", row.lease_gen),
               F::n("object_gen", row.object_gen), F::n("owner_gen", row.owner_gen)});
}

std::optional<std::string> Script::kill(TimeUs t_us, std::int32_t node) {
  return feed(t_us, node, "kill", {F::n("run", 1)});
}

std::optional<std::string> Script::start(TimeUs t_us, std::int32_t node) {
  return feed(t_us, node, "start", {F::n("run", 2)});
}

Write new_owner(const Row& from, const std::string& to_owner, std::int64_t to_lease_gen, const std::string& to_rid) {
  Write write;
  write.op = "new_owner";
  write.row = from;
  write.row.owner = to_owner;
  write.row.lease_gen = to_lease_gen;
  write.row.owner_gen = from.owner_gen + 1;
  write.row.rid = to_rid;
  write.row.state = "active";
  write.prev_owner = from.owner;
  write.prev_lease_gen = from.lease_gen;
  write.prev_owner_gen = from.owner_gen;
  write.prev_mesh = from.mesh;
  write.prev_rid = from.rid;
  return write;
}

}  // namespace spotcheck::properties::testing
