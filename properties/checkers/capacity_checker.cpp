#include "properties/checkers/capacity_checker.h"

#include <algorithm>

#include "impl/location/events/authority_events.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/enums.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

using model::AuthorityOp;

namespace {

// Bound on the counter changes one write may imply (two nodes x three counters).
constexpr std::size_t kChangesPerWriteMax = 6;

std::string counter_text(std::string_view counter, std::string_view spot_kind, std::string_view stable_type,
                         std::string_view mesh, std::string_view rid) {
  std::string out(counter);
  if (!spot_kind.empty()) {
    out += "(" + std::string(spot_kind) + "/" + std::string(stable_type) + ")";
  }
  out += " on " + std::string(mesh) + "/" + std::string(rid);
  return out;
}

// The store key of a counter named by event fields; nullopt for an unknown counter / kind.
std::optional<std::string> counter_key(std::string_view counter, std::string_view spot_kind,
                                       std::string_view stable_type, std::string_view mesh, std::string_view rid) {
  if (mesh.empty() || rid.empty()) {
    return std::nullopt;
  }
  if (counter == "actors") {
    return location::keys::capacity_actors(mesh, rid);
  }
  if (counter == "spots") {
    return location::keys::capacity_spots(mesh, rid);
  }
  if (counter == "spot-type") {
    const std::optional<records::ObjectKind> kind = records::parse_object_kind(spot_kind);
    if (!kind.has_value() || !records::is_spot(*kind) || stable_type.empty()) {
      return std::nullopt;
    }
    return location::keys::capacity_spot_type(mesh, rid, *kind, stable_type);
  }
  return std::nullopt;
}

}  // namespace

CapacityChecker::CapacityChecker(const PropertyOptions& options) : _limits(options.capacity) {}

std::optional<std::string> CapacityChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kCapacityChanged) {
    return on_capacity_changed(event);
  }
  // Any other event from the node closes the changes its last applied write still owed.
  const auto pending = _pending.find(event.node);
  if (pending != _pending.end()) {
    std::optional<std::string> problem = missing_changes(pending->second);
    _pending.erase(pending);
    if (problem.has_value()) {
      return where(event) + ": " + *problem;
    }
  }
  if (const std::optional<ParsedAuthority> parsed = authority_event_of(event)) {
    if (!parsed->change.has_value()) {
      return parsed->problem;
    }
    return on_authority(event, *parsed->change);
  }
  return std::nullopt;
}

std::optional<std::string> CapacityChecker::missing_changes(const Pending& pending) const {
  if (pending.changes.empty()) {
    return std::nullopt;
  }
  std::string missing;
  for (const CounterChange& change : pending.changes) {
    missing += (missing.empty() ? "" : ", ") + change.text + " " + (change.delta > 0 ? "+" : "") +
               std::to_string(change.delta);
  }
  cite(pending.write_event);  // write_text names it
  return pending.write_text + " applied, but no capacity.changed reported " + missing +
         " (every counter change of an applied write is reported right after it)";
}

std::optional<std::string> CapacityChecker::allocation_changes(const AuthorityEvent& change, std::string_view mesh,
                                                               std::string_view rid, std::int64_t sign,
                                                               std::vector<CounterChange>& out) const {
  const std::optional<records::ObjectKind> kind = records::parse_object_kind(change.object_kind);
  if (!kind.has_value()) {
    return "unknown object_kind '" + std::string(change.object_kind) + "'";
  }
  if (mesh.empty() || rid.empty()) {
    return "the allocation names no node (empty mesh or rid)";
  }
  if (records::is_spot(*kind) && change.stable_type.empty()) {
    return "a Spot allocation without a stable type";
  }
  // Spec §3.3: an Actor holds 1 actor slot; a User/Instance Spot 1 spot slot plus 1 slot of its type.
  if (*kind == records::ObjectKind::kActor) {
    out.push_back({location::keys::capacity_actors(mesh, rid), counter_text("actors", "", "", mesh, rid), sign,
                   _limits.actors});
    return std::nullopt;
  }
  out.push_back({location::keys::capacity_spots(mesh, rid), counter_text("spots", "", "", mesh, rid), sign,
                 _limits.spots});
  const std::string type_name = std::string(change.object_kind) + "/" + std::string(change.stable_type);
  const auto type_limit = _limits.spot_types.find(type_name);
  out.push_back({location::keys::capacity_spot_type(mesh, rid, *kind, change.stable_type),
                 counter_text("spot-type", change.object_kind, change.stable_type, mesh, rid), sign,
                 type_limit == _limits.spot_types.end() ? 0U : type_limit->second});
  return std::nullopt;
}

std::optional<std::string> CapacityChecker::check_placement(const sim::TraceEvent& event,
                                                            const AuthorityEvent& change, std::int64_t owner_gen,
                                                            std::string_view mesh, std::string_view rid) {
  EpochFacts& epoch = _epochs.at(change.object(), change.object_gen, owner_gen);
  if (epoch.claim_placement(mesh, rid, event.index)) {
    return std::nullopt;
  }
  return where(event) + " " + describe_write(change, event.index) + ": " + change.describe_object() +
         " (ObjectGeneration " + std::to_string(change.object_gen) + ", AuthorityOwnerGeneration " +
         std::to_string(owner_gen) + ") is placed on " + std::string(mesh) + "/" + std::string(rid) + " here but on " +
         epoch.mesh + "/" + epoch.rid + " at " + cite(epoch.placement_event) +
         ": its capacity would be released where it was not secured";
}

std::optional<std::string> CapacityChecker::on_authority(const sim::TraceEvent& event, const AuthorityEvent& change) {
  if (!change.applied()) {
    return std::nullopt;  // nothing changed: a capacity.changed after it is reported as orphan
  }
  std::vector<CounterChange> changes;
  std::optional<std::string> bad;
  switch (change.op) {
    case AuthorityOp::kReserve:
      bad = allocation_changes(change, change.mesh, change.rid, +1, changes);
      break;
    case AuthorityOp::kAbort:
    case AuthorityOp::kDelete:
      bad = allocation_changes(change, change.mesh, change.rid, -1, changes);
      break;
    case AuthorityOp::kNewOwner:
      if (auto problem = check_placement(event, change, change.prev_owner_gen, change.prev_mesh, change.prev_rid)) {
        return problem;
      }
      if (change.prev_mesh != change.mesh || change.prev_rid != change.rid) {
        bad = allocation_changes(change, change.prev_mesh, change.prev_rid, -1, changes);
        if (!bad.has_value()) {
          bad = allocation_changes(change, change.mesh, change.rid, +1, changes);
        }
      }
      break;
    case AuthorityOp::kCommit:
    case AuthorityOp::kPreserve:
      break;
  }
  if (bad.has_value()) {
    return where(event) + " " + describe_write(change, event.index) + ": " + *bad;
  }
  if (auto problem = check_placement(event, change, change.owner_gen, change.mesh, change.rid)) {
    return problem;
  }
  if (changes.size() > kChangesPerWriteMax) {
    return where(event) + ": internal: too many counter changes for one write";
  }
  for (const CounterChange& expected : changes) {
    _expected[expected.key] += expected.delta;
  }
  if (!changes.empty()) {
    _pending[event.node] = Pending{std::move(changes), event.index,
                                   describe_write(change, event.index) + " of " + change.describe_object()};
  }
  return std::nullopt;
}

std::optional<std::string> CapacityChecker::on_capacity_changed(const sim::TraceEvent& event) {
  const auto read = read_event<events::CapacityChanged>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const location::events::CapacityChanged& changed = read.event;
  const std::string_view mesh = changed.mesh;
  const std::string_view rid = changed.rid;
  const std::string_view counter = changed.counter;
  const std::string_view spot_kind = changed.spot_kind;
  const std::string_view stable_type = changed.stable_type;
  const std::int64_t delta = changed.delta;
  const std::int64_t value = changed.value;
  const std::string text = counter_text(counter, spot_kind, stable_type, mesh, rid);
  auto subject = [&] { return where(event) + " capacity.changed " + text + " delta " + std::to_string(delta) +
                              " value " + std::to_string(value); };  // built only for a violation
  const std::optional<std::string> key = counter_key(counter, spot_kind, stable_type, mesh, rid);
  if (!key.has_value()) {
    return subject() + ": unknown counter";
  }
  if (value < -1) {
    return subject() + ": a capacity counter is never negative";
  }
  if (delta > 0 && value >= 0 && value < delta) {
    return subject() + ": after securing " + std::to_string(delta) + " slot(s) the counter holds at least that many";
  }
  const auto pending = _pending.find(event.node);
  if (pending == _pending.end()) {
    return subject() + ": no applied authority write of this node implies it (a refused, exhausted or "
                     "indeterminate write changes no counter)";
  }
  std::vector<CounterChange>& owed = pending->second.changes;
  const auto match = std::find_if(owed.begin(), owed.end(), [&](const CounterChange& change) {
    return change.key == *key && change.delta == delta;
  });
  if (match == owed.end()) {
    cite(pending->second.write_event);  // write_text names it
    return subject() + ": " + pending->second.write_text + " implies no such change";
  }
  // The value is the store's answer to the write: a secure the store let past the node's limit is
  // a bound the protocol computed wrong (or did not send).
  if (delta > 0 && match->limit > 0 && value > static_cast<std::int64_t>(match->limit)) {
    cite(pending->second.write_event);  // write_text names it
    return subject() + ": " + pending->second.write_text + " took the counter past the node's limit of " +
           std::to_string(match->limit) + " (§3.3: a full node refuses a new allocation)";
  }
  owed.erase(match);
  if (owed.empty()) {
    _pending.erase(pending);
  }
  _reported[*key] += delta;
  return std::nullopt;
}

std::optional<std::string> CapacityChecker::finish(const RunEnd& end) {
  static_cast<void>(end);
  // Lowest node first, so the report does not depend on hash order.
  std::optional<std::int32_t> first_node;
  for (const auto& [node, pending] : _pending) {
    if (!pending.changes.empty() && (!first_node.has_value() || node < *first_node)) {
      first_node = node;
    }
  }
  if (first_node.has_value()) {
    return "at the end of the run: " + missing_changes(_pending.at(*first_node)).value_or("");
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties
