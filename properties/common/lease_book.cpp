#include "properties/common/lease_book.h"

#include <algorithm>

#include "impl/platform/event_kinds.h"

namespace spotcheck::properties {


LeaseFacts& LeaseBook::facts_of(std::string_view owner) {
  auto found = _leases.find(owner);
  if (found == _leases.end()) {
    found = _leases.emplace(std::string(owner), LeaseFacts{}).first;
    found->second.run.owner = std::string(owner);
  }
  return found->second;
}

const LeaseFacts* LeaseBook::find(std::string_view owner) const {
  const auto found = _leases.find(owner);
  return found == _leases.end() ? nullptr : &found->second;
}

bool LeaseBook::observe(const sim::TraceEvent& event) {
  const std::string_view kind = event.kind;
  if (kind == kinds::kProcessKill || kind == kinds::kProcessExit) {
    const auto current = _node_owner.find(event.node);
    if (current == _node_owner.end()) {
      return false;
    }
    LeaseFacts& facts = facts_of(current->second);
    facts.dead = true;
    facts.dead_event = event.index;
    _node_owner.erase(current);
    return true;
  }
  if (kind.empty() || kind[0] != 'l') {
    return false;
  }
  const std::optional<std::string_view> owner = event.text("owner");
  if (!owner.has_value() || owner->empty()) {
    return false;
  }
  if (kind == kinds::kLeaseRegistered || kind == kinds::kLeaseRenewed) {
    LeaseFacts& facts = facts_of(*owner);
    if (kind == kinds::kLeaseRegistered && !facts.registered) {
      facts.registered = true;
      facts.node = event.node;
      facts.registered_event = event.index;
      _node_owner[event.node] = std::string(*owner);
    }
    facts.run.lease_gen = event.number("lease_gen").value_or(facts.run.lease_gen);
    const std::int64_t expires_ms = event.number("expires_ms").value_or(0);
    if (expires_ms >= facts.expires_ms) {
      facts.expires_ms = expires_ms;
      facts.expires_event = event.index;
    }
    facts.deadline_us = std::max(facts.deadline_us, event.number("deadline_us").value_or(0));
    return true;
  }
  if (kind == kinds::kLeaseAdmissionReopened) {
    LeaseFacts& facts = facts_of(*owner);
    facts.deadline_us = std::max(facts.deadline_us, event.number("deadline_us").value_or(0));
    return true;
  }
  if (kind == kinds::kLeaseLost) {
    LeaseFacts& facts = facts_of(*owner);
    if (!facts.lost) {
      facts.lost = true;
      facts.lost_event = event.index;
      facts.lost_store_ms = _clock.at(event.time_us);
    }
    return true;
  }
  return false;
}

}  // namespace spotcheck::properties
