#include "properties/common/lease_book.h"

#include <algorithm>
#include <limits>

#include "impl/location/events/lease_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

platform::TimeUs admission_bound_us(const events::LeaseAdopted& adopted) {
  // Saturating: a corrupt event must not overflow into a bound that passes everything.
  const __int128 bound = static_cast<__int128>(adopted.local_before_us) +
                         (static_cast<__int128>(adopted.expires_ms) - adopted.store_now_ms) * platform::kMicrosPerMilli -
                         adopted.margin_us;
  const __int128 lo = std::numeric_limits<platform::TimeUs>::min();
  const __int128 hi = std::numeric_limits<platform::TimeUs>::max();
  return static_cast<platform::TimeUs>(std::clamp(bound, lo, hi));
}

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

bool LeaseBook::on_adopted(const sim::TraceEvent& event) {
  const auto read = read_event<events::LeaseAdopted>(event);
  if (!read.ok() || read.event.owner.empty()) {
    return false;  // the checkers report a malformed event
  }
  const events::LeaseAdopted& adopted = read.event;
  LeaseFacts& facts = facts_of(adopted.owner);
  if (event.kind == kinds::kLeaseRegistered && !facts.registered) {
    facts.registered = true;
    facts.node = event.node;
    facts.registered_event = event.index;
    _node_owner[event.node] = std::string(adopted.owner);
  }
  facts.run.lease_gen = adopted.lease_gen;
  if (adopted.expires_ms >= facts.expires_ms) {
    facts.expires_ms = adopted.expires_ms;
    facts.expires_event = event.index;
  }
  facts.deadline_us = std::max(facts.deadline_us, adopted.deadline_us);
  const platform::TimeUs bound_us = admission_bound_us(adopted);
  if (!facts.deadline_bounded || bound_us > facts.deadline_bound_us) {
    facts.deadline_bounded = true;
    facts.deadline_bound_us = bound_us;
    facts.deadline_bound_event = event.index;
  }
  return true;
}

bool LeaseBook::observe(const sim::TraceEvent& event) {
  const std::string_view kind = event.kind;
  _clock.observe(event);
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
  if (kind == kinds::kLeaseRegistered || kind == kinds::kLeaseRenewed) {
    return on_adopted(event);
  }
  if (kind == kinds::kLeaseAdmissionReopened) {
    const auto read = read_event<events::LeaseAdmissionReopened>(event);
    if (!read.ok() || read.event.owner.empty()) {
      return false;  // the checkers report a malformed event
    }
    LeaseFacts& facts = facts_of(read.event.owner);
    facts.deadline_us = std::max(facts.deadline_us, read.event.deadline_us);
    return true;
  }
  if (kind == kinds::kLeaseLost) {
    const auto read = read_event<events::LeaseLost>(event);
    if (!read.ok() || read.event.owner.empty()) {
      return false;
    }
    LeaseFacts& facts = facts_of(read.event.owner);
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
