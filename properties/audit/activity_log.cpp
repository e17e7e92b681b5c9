#include "properties/audit/activity_log.h"

#include "impl/location/events/descriptor_events.h"
#include "impl/location/events/lease_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/read_event.h"
#include "sim/events/harness_events.h"

namespace spotcheck::properties {

namespace events = location::events;

namespace {

std::string object_key(std::string_view kind, std::string_view id) {
  std::string key(kind);
  key += '/';
  key += id;
  return key;
}

}  // namespace

std::optional<std::string> ActivityLog::on_event(const sim::TraceEvent& event) {
  ++_counts.events;
  const std::string_view kind = event.kind;
  if (const std::optional<ParsedAuthority> parsed = authority_event_of(event)) {
    if (parsed->change.has_value()) {
      on_authority(event, *parsed->change);
    }
  } else if (kind == kinds::kRequestStart) {
    ++_counts.requests_started;
  } else if (kind == kinds::kRequestEnd) {
    ++_counts.requests_ended;
    const auto read = read_event<sim::events::RequestEnd>(event);
    ++_counts.request_outcomes[read.ok() ? std::string(read.event.outcome) : std::string("?")];
  } else if (kind == kinds::kObjectWork) {
    ++_counts.object_work;
  } else if (kind == kinds::kLeaseRegistered) {
    ++_counts.leases_registered;
    if (const auto read = read_event<events::LeaseAdopted>(event); read.ok()) {
      _owner_node[std::string(read.event.owner)] = event.node;
      _current_owner[event.node] = std::string(read.event.owner);
    }
  } else if (kind == kinds::kLeaseRenewed) {
    ++_counts.leases_renewed;
  } else if (kind == kinds::kLeaseLost) {
    ++_counts.leases_lost;
  } else if (kind == kinds::kLeaseRegisterFailed) {
    _counts.store_errors += read_event<events::LeaseRegisterFailed>(event).event.outcome == "store_error" ? 1 : 0;
  } else if (kind == kinds::kLeaseRenewFailed) {
    _counts.store_errors += read_event<events::LeaseRenewFailed>(event).event.outcome == "store_error" ? 1 : 0;
  } else if (kind == kinds::kDescriptorPublished) {
    const std::string_view outcome = read_event<events::DescriptorPublished>(event).event.outcome;
    _counts.descriptors_published += outcome == "published" || outcome == "taken_over" ? 1 : 0;
  } else if (kind == kinds::kStoreIndeterminate) {
    on_indeterminate(read_event<events::StoreIndeterminate>(event).event);
  } else if (kind == kinds::kProcessStart) {
    ++_counts.host_runs;
  } else if (kind == kinds::kProcessKill || kind == kinds::kProcessExit) {
    _counts.kills += kind == kinds::kProcessKill ? 1 : 0;
    _current_owner.erase(event.node);
  } else if (kind == kinds::kProcessPause) {
    ++_counts.pauses;
  }
  return std::nullopt;  // this observer only counts; the property suite judges
}

void ActivityLog::on_indeterminate(const location::events::StoreIndeterminate& indeterminate) {
  ++_counts.indeterminate_replies;
  std::string op(indeterminate.op.empty() ? "?" : indeterminate.op);
  if (indeterminate.has_id) {
    op += "/";
    op += indeterminate.resolution;
    _uncertain_ids.insert(std::string(indeterminate.id));
  }
  ++_counts.indeterminate_by_op[op];
}

void ActivityLog::on_authority(const sim::TraceEvent& event, const AuthorityEvent& change) {
  const std::string_view outcome = change.outcome;
  const std::string_view id = change.id;
  const model::AuthorityOp op = change.op;
  if (outcome == "indeterminate") {
    ++_counts.indeterminate_outcomes;
    _uncertain_ids.insert(std::string(id));
    return;
  }
  if (outcome == "conflict") {
    ++_counts.conflicts;
  }
  if (outcome == "store_error") {
    ++_counts.store_errors;
  }
  if (outcome != "applied") {
    return;  // refused: nothing changed
  }
  if (change.resolved) {
    ++_counts.resolved_by_reread;
  }
  ObjectView& view = _objects[object_key(change.kind, id)];
  view.last_event = event.index;
  if (change.removes_row()) {
    ++(op == model::AuthorityOp::kAbort ? _counts.aborts : _counts.deletes);
    view.exists = false;
    return;
  }
  if (op == model::AuthorityOp::kReserve) {
    ++_counts.reserves;
  } else if (op == model::AuthorityOp::kCommit) {
    ++_counts.commits;
  } else if (op == model::AuthorityOp::kPreserve) {
    ++_counts.preserves;
  } else if (op == model::AuthorityOp::kNewOwner) {
    ++_counts.takeovers;
  }
  view.exists = true;
  view.owner = std::string(change.owner.owner);
  view.lease_gen = change.owner.lease_gen;
  view.object_gen = change.object_gen;
  view.owner_gen = change.owner_gen;
  view.state = std::string(change.state);
}

std::optional<std::int32_t> ActivityLog::busiest_owner_node() const {
  std::map<std::int32_t, std::uint32_t> owned;  // node -> Active objects
  for (const auto& [key, view] : _objects) {
    if (!view.exists || view.state != "active") {
      continue;
    }
    const auto node = _owner_node.find(view.owner);
    if (node == _owner_node.end()) {
      continue;
    }
    const auto current = _current_owner.find(node->second);
    if (current != _current_owner.end() && current->second == view.owner) {
      ++owned[node->second];  // owned by the node's live host run
    }
  }
  std::optional<std::int32_t> best;
  std::uint32_t best_count = 0;
  for (const auto& [node, count] : owned) {  // ordered: ties go to the lowest node
    if (count > best_count) {
      best = node;
      best_count = count;
    }
  }
  return best;
}

}  // namespace spotcheck::properties
