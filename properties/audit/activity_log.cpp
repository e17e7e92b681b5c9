#include "properties/audit/activity_log.h"

#include "impl/platform/event_kinds.h"

namespace spotcheck::properties {



namespace {

constexpr std::string_view kAuthorityPrefix = "authority.";

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
  if (kind.starts_with(kAuthorityPrefix)) {
    on_authority(event, kind.substr(kAuthorityPrefix.size()));
  } else if (kind == kinds::kRequestStart) {
    ++_counts.requests_started;
  } else if (kind == kinds::kRequestEnd) {
    ++_counts.requests_ended;
    ++_counts.request_outcomes[std::string(event.text("outcome").value_or("?"))];
  } else if (kind == kinds::kObjectWork) {
    ++_counts.object_work;
  } else if (kind == kinds::kLeaseRegistered) {
    ++_counts.leases_registered;
    if (const auto owner = event.text("owner")) {
      _owner_node[std::string(*owner)] = event.node;
      _current_owner[event.node] = std::string(*owner);
    }
  } else if (kind == kinds::kLeaseRenewed) {
    ++_counts.leases_renewed;
  } else if (kind == kinds::kLeaseLost) {
    ++_counts.leases_lost;
  } else if (kind == kinds::kLeaseRegisterFailed || kind == kinds::kLeaseRenewFailed) {
    if (event.text("outcome") == "store_error") {
      ++_counts.store_errors;
    }
  } else if (kind == kinds::kDescriptorPublished) {
    if (event.text("outcome") == "published" || event.text("outcome") == "taken_over") {
      ++_counts.descriptors_published;
    }
  } else if (kind == kinds::kStoreIndeterminate) {
    ++_counts.indeterminate_replies;
    std::string op(event.text("op").value_or("?"));
    if (const auto resolution = event.text("resolution")) {
      op += "/";
      op += *resolution;
    }
    ++_counts.indeterminate_by_op[op];
    if (const auto id = event.text("id")) {
      _uncertain_ids.insert(std::string(*id));
    }
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

void ActivityLog::on_authority(const sim::TraceEvent& event, std::string_view op) {
  const std::string_view outcome = event.text("outcome").value_or("");
  const std::string_view id = event.text("id").value_or("");
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
  if (event.number("resolved").value_or(0) == 1) {
    ++_counts.resolved_by_reread;
  }
  ObjectView& view = _objects[object_key(event.text("kind").value_or("?"), id)];
  view.last_event = event.index;
  if (op == "abort" || op == "delete") {
    ++(op == "abort" ? _counts.aborts : _counts.deletes);
    view.exists = false;
    return;
  }
  if (op == "reserve") {
    ++_counts.reserves;
  } else if (op == "commit") {
    ++_counts.commits;
  } else if (op == "preserve") {
    ++_counts.preserves;
  } else if (op == "new_owner") {
    ++_counts.takeovers;
  }
  view.exists = true;
  view.owner = std::string(event.text("owner").value_or(""));
  view.lease_gen = event.number("lease_gen").value_or(0);
  view.object_gen = event.number("object_gen").value_or(0);
  view.owner_gen = event.number("owner_gen").value_or(0);
  view.state = std::string(event.text("state").value_or(""));
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
