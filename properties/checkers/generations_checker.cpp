#include "properties/checkers/generations_checker.h"

#include "impl/location/events/descriptor_events.h"
#include "impl/location/events/lease_events.h"
#include "impl/platform/event_kinds.h"
#include "impl/records/limits.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"
#include "sim/events/harness_events.h"

namespace spotcheck::properties {

namespace events = location::events;

using model::AuthorityOp;
using model::AuthorityState;

namespace {

constexpr std::int64_t kIssuedMax = static_cast<std::int64_t>(records::kGenerationMax);

bool issued(std::int64_t generation) {
  return generation >= 1 && generation <= kIssuedMax;
}

std::string range_problem(std::string_view what, std::int64_t value) {
  return std::string(what) + " " + std::to_string(value) + " is outside the issued range 1..2^63-2 (spec §3.2)";
}

}  // namespace

GenerationsChecker::GenerationsChecker(const PropertyOptions& options) : _clock{options.store_epoch_ms, {}} {}

std::optional<std::string> GenerationsChecker::on_event(const sim::TraceEvent& event) {
  const std::string_view kind = event.kind;
  if (kind.empty()) {
    return std::nullopt;
  }
  _clock.observe(event);
  if (const std::optional<ParsedAuthority> parsed = authority_event_of(event)) {
    if (!parsed->change.has_value()) {
      return parsed->problem;
    }
    return on_authority(event, *parsed->change);
  }
  if (kind == kinds::kGenerationExhausted) {
    return on_exhausted(event);
  }
  if (kind == kinds::kObjectWork) {
    return bind_owner<sim::events::ObjectWork>(event);
  }
  if (kind == kinds::kDescriptorPublished) {
    return bind_owner<events::DescriptorPublished>(event);
  }
  if (kind == kinds::kPlacementChosen) {
    return bind_owner<events::PlacementChosen>(event);
  }
  if (kind == kinds::kLeaseRegistered || kind == kinds::kLeaseRenewed) {
    return on_lease_adopted(event);
  }
  // admission.refused is left out: before registration completes it may carry a tentative
  // LeaseGeneration that was never issued to this host run (and lease.register_failed names none).
  if (kind == kinds::kLeaseAdmissionClosed) {
    return bind_owner<events::LeaseAdmissionClosed>(event);
  }
  if (kind == kinds::kLeaseAdmissionReopened) {
    return bind_owner<events::LeaseAdmissionReopened>(event);
  }
  if (kind == kinds::kLeaseLost) {
    return bind_owner<events::LeaseLost>(event);
  }
  if (kind == kinds::kLeaseRenewFailed) {
    return bind_owner<events::LeaseRenewFailed>(event);
  }
  return std::nullopt;
}

// OwnerId <-> LeaseGeneration is one-to-one: a host run has one LeaseGeneration for its whole
// life, and a LeaseGeneration is issued to one host run only.
std::optional<std::string> GenerationsChecker::bind(const sim::TraceEvent& event, const HostRunRef& run,
                                                    std::string_view role) {
  if (run.owner.empty() || run.lease_gen == 0) {
    return std::nullopt;  // not registered yet (e.g. admission.refused before registration)
  }
  if (!issued(run.lease_gen)) {
    return where(event) + " " + std::string(event.kind) + ": " + std::string(role) + " " + describe(run) + ": " +
           range_problem("LeaseGeneration", run.lease_gen);
  }
  auto by_owner = _lease_gen_of_owner.find(run.owner);
  if (by_owner == _lease_gen_of_owner.end()) {
    _lease_gen_of_owner.emplace(std::string(run.owner), LeaseBinding{run.lease_gen, event.index});
  } else if (by_owner->second.lease_gen != run.lease_gen) {
    return where(event) + " " + std::string(event.kind) + ": OwnerId " + std::string(run.owner) +
           " carries LeaseGeneration " + std::to_string(run.lease_gen) + " but carried " +
           std::to_string(by_owner->second.lease_gen) + " at " + cite(by_owner->second.event) +
           " (a host run's LeaseGeneration never changes, spec §3.1)";
  }
  auto by_gen = _owner_of_lease_gen.find(run.lease_gen);
  if (by_gen == _owner_of_lease_gen.end()) {
    _owner_of_lease_gen.emplace(run.lease_gen, OwnerBinding{std::string(run.owner), event.index});
  } else if (by_gen->second.owner != run.owner) {
    return where(event) + " " + std::string(event.kind) + ": LeaseGeneration " + std::to_string(run.lease_gen) +
           " reused: host run " + std::string(run.owner) + " and host run " + by_gen->second.owner + " (" +
           cite(by_gen->second.event) + ") both hold it (spec §3.1)";
  }
  return std::nullopt;
}

template <class E>
std::optional<std::string> GenerationsChecker::bind_owner(const sim::TraceEvent& event) {
  const EventRead<HostRunRef> run = read_host_run<E>(event);
  if (!run.ok()) {
    return run.problem;
  }
  return bind(event, run.event, "owner");
}

std::optional<std::string> GenerationsChecker::on_lease_adopted(const sim::TraceEvent& event) {
  const EventRead<HostRunRef> run = read_host_run<events::LeaseAdopted>(event);
  if (!run.ok()) {
    return run.problem;
  }
  if (!issued(run.event.lease_gen)) {
    return where(event) + " " + std::string(event.kind) + " of " + describe(run.event) + ": " +
           range_problem("LeaseGeneration", run.event.lease_gen);
  }
  return bind(event, run.event, "owner");
}

std::optional<std::string> GenerationsChecker::on_exhausted(const sim::TraceEvent& event) {
  const auto read = read_event<events::GenerationExhausted>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::GenerationExhausted& exhausted = read.event;
  const std::string_view counter = exhausted.counter;
  // Exhaustion means the counter stood at 2^63-2 or at the sentinel 2^63-1 (spec §3.2).
  if (exhausted.has_value && exhausted.value < kIssuedMax) {
    return where(event) + " generation.exhausted for counter " + std::string(counter) + " at value " +
           std::to_string(exhausted.value) + ": exhaustion is only at 2^63-2 or the sentinel 2^63-1 (spec §3.2)";
  }
  if (counter == "object-generation" && !_object_counter_exhausted.has_value()) {
    // The read that found the counter exhausted happened at or before this instant; the counter
    // never goes down, so no Reserve can apply after it.
    _object_counter_exhausted = ReserveApply{_clock.at(event.time_us), event.index};
  }
  return std::nullopt;
}

std::optional<std::string> GenerationsChecker::on_authority(const sim::TraceEvent& event,
                                                            const AuthorityEvent& change) {
  if (!change.by.empty()) {
    if (auto problem = bind(event, change.by, "by")) {
      return problem;
    }
  }
  if (!change.applied()) {
    return std::nullopt;  // nothing changed (or, for indeterminate, nothing the trace can rely on)
  }
  if (auto problem = bind(event, change.owner, "owner")) {
    return problem;
  }
  if (change.op == AuthorityOp::kNewOwner) {
    if (auto problem = bind(event, change.prev_owner, "prev_owner")) {
      return problem;
    }
  }
  auto subject = [&] { return where(event) + " " + describe_write(change, event.index) + " of " + change.describe_object(); };  // built only for a violation
  if (!issued(change.object_gen)) {
    return subject() + ": " + range_problem("ObjectGeneration", change.object_gen);
  }
  if (!issued(change.owner_gen)) {
    return subject() + ": " + range_problem("AuthorityOwnerGeneration", change.owner_gen);
  }
  if (auto problem = check_transition(event, change)) {
    return problem;
  }
  switch (change.op) {
    case AuthorityOp::kReserve:
      if (change.owner_gen != 1) {
        return subject() + ": Reserve must issue the first AuthorityOwnerGeneration 1 (spec §6.1)";
      }
      break;
    case AuthorityOp::kCommit:
      if (change.owner_gen != 1) {
        return subject() + ": Commit of a reservation must keep AuthorityOwnerGeneration 1 (a Reserved row never "
                         "changed owner, spec §6.1)";
      }
      break;
    case AuthorityOp::kNewOwner:
      if (change.owner_gen != change.prev_owner_gen + 1) {
        return subject() + ": NewOwner must raise AuthorityOwnerGeneration by exactly one, from " +
               std::to_string(change.prev_owner_gen) + " to " + std::to_string(change.prev_owner_gen + 1) +
               ", not to " + std::to_string(change.owner_gen) + " (spec §3.2)";
      }
      // prev_object_gen: the row's ObjectGeneration before the change (docs/events.md).
      if (change.prev_object_gen != change.object_gen) {
        return subject() + ": NewOwner changed ObjectGeneration from " + std::to_string(change.prev_object_gen) +
               " to " + std::to_string(change.object_gen) + "; an owner change keeps it (spec §3.2)";
      }
      if (change.prev_owner == change.owner) {
        return subject() + ": NewOwner kept the owner " + describe(change.owner) + " (an owner change must name another host run)";
      }
      if (auto problem = claim_epoch_owner(event, change, change.prev_owner_gen, change.prev_owner)) {
        return problem;
      }
      break;
    case AuthorityOp::kAbort:
    case AuthorityOp::kPreserve:
    case AuthorityOp::kDelete:
      break;
  }
  if (auto problem = check_object_gen(event, change)) {
    return problem;
  }
  return claim_epoch_owner(event, change, change.owner_gen, change.owner);
}

// The model's table (model/authority_transitions.h) decides. An event shows the row after the
// change, or the removed row for Abort/Delete; the owner sweep deletes a row in either state
// (a Reserved one is an Abort in the model's terms).
std::optional<std::string> GenerationsChecker::check_transition(const sim::TraceEvent& event,
                                                                const AuthorityEvent& change) const {
  const std::optional<AuthorityState> state = change.row_state();
  auto subject = [&] { return where(event) + " " + describe_write(change, event.index) + " of " + change.describe_object(); };  // built only for a violation
  if (!state.has_value()) {
    return subject() + ": unknown row state '" + std::string(change.state) + "'";
  }
  if (change.removes_row()) {
    AuthorityOp op = change.op;
    if (change.sweep() && *state == AuthorityState::kReserved) {
      op = AuthorityOp::kAbort;
    }
    if (!model::legal(*state, AuthorityState::kMissing, op)) {
      return subject() + ": " + model::to_string(change.op) + " removed a " + model::to_string(*state) +
             " row, which is not a legal transition (spec §6.1)";
    }
    return std::nullopt;
  }
  for (const AuthorityState from : model::kAllAuthorityStates) {
    if (model::legal(from, *state, change.op)) {
      return std::nullopt;
    }
  }
  return subject() + ": " + model::to_string(change.op) + " left the row " + model::to_string(*state) +
         ", which no legal transition does (spec §6.1)";
}

std::optional<std::string> GenerationsChecker::check_object_gen(const sim::TraceEvent& event,
                                                                const AuthorityEvent& change) {
  const std::string object = change.object();
  auto found = _object_gens.find(change.object_gen);
  if (found == _object_gens.end()) {
    found = _object_gens
                .emplace(change.object_gen, IssuedObjectGen{object, change.describe_object(), event.index, false, 0})
                .first;
  } else if (found->second.object != object) {
    return where(event) + " " + describe_write(change, event.index) + ": ObjectGeneration " +
           std::to_string(change.object_gen) + " of " + change.describe_object() + " was already issued to " +
           found->second.described + " (" + cite(found->second.event) +
           "): one store-wide sequence never issues a value twice (spec §3.2)";
  }
  if (change.op != AuthorityOp::kReserve) {
    return std::nullopt;
  }
  if (found->second.reserved) {
    return where(event) + " " + describe_write(change, event.index) + ": ObjectGeneration " +
           std::to_string(change.object_gen) + " issued by a second Reserve of " + change.describe_object() +
           " (first " + cite(found->second.reserve_event) + "): never reused (spec §3.2)";
  }
  found->second.reserved = true;
  found->second.reserve_event = event.index;
  return check_sequence_order(event, change);
}

// The sequence is monotonic in store time: a Reserve that applied later holds a larger value.
// Only resolved=0 Reserves carry their apply instant; equal milliseconds are not ordered.
std::optional<std::string> GenerationsChecker::check_sequence_order(const sim::TraceEvent& event,
                                                                    const AuthorityEvent& change) {
  if (change.resolved) {
    return std::nullopt;
  }
  const std::int64_t apply_ms = change.store_now_ms;
  auto subject = [&] { return where(event) + " " + describe_write(change, event.index) + " of " +
                              change.describe_object() + " applied at " + store_ms_text(apply_ms, _clock.epoch_ms); };  // built only for a violation
  if (_object_counter_exhausted.has_value() && apply_ms > _object_counter_exhausted->apply_ms) {
    return subject() + ", after the ObjectGeneration counter was found exhausted (" +
           cite(_object_counter_exhausted->event) + "): exhaustion changes nothing (spec §3.2)";
  }
  const auto [inserted, fresh] = _reserve_order.emplace(change.object_gen, ReserveApply{apply_ms, event.index});
  if (!fresh) {
    return std::nullopt;  // reported twice only through a violation found above
  }
  if (inserted != _reserve_order.begin()) {
    const auto previous = std::prev(inserted);
    if (previous->second.apply_ms > apply_ms) {
      return subject() + " issued ObjectGeneration " + std::to_string(change.object_gen) + ", but the lower " +
             std::to_string(previous->first) + " was issued later, at " +
             store_ms_text(previous->second.apply_ms, _clock.epoch_ms) + " (" + cite(previous->second.event) +
             "): the store-wide sequence only grows (spec §3.2)";
    }
  }
  const auto next = std::next(inserted);
  if (next != _reserve_order.end() && next->second.apply_ms < apply_ms) {
    return subject() + " issued ObjectGeneration " + std::to_string(change.object_gen) + " after the higher " +
           std::to_string(next->first) + " had been issued, at " + store_ms_text(next->second.apply_ms, _clock.epoch_ms) +
           " (" + cite(next->second.event) + "): the store-wide sequence only grows (spec §3.2)";
  }
  return std::nullopt;
}

std::optional<std::string> GenerationsChecker::claim_epoch_owner(const sim::TraceEvent& event,
                                                                 const AuthorityEvent& change,
                                                                 std::int64_t owner_gen, const HostRunRef& owner) {
  EpochFacts& epoch = _epochs.at(change.object(), change.object_gen, owner_gen);
  if (epoch.claim_owner(owner, event.index)) {
    return std::nullopt;
  }
  return where(event) + " " + describe_write(change, event.index) + ": AuthorityOwnerGeneration " +
         std::to_string(owner_gen) + " of " + change.describe_object() + " (ObjectGeneration " +
         std::to_string(change.object_gen) + ") names " + describe(owner) + ", but " +
         cite(epoch.owner_event) + " named " + describe(epoch.owner) +
         ": each owner change issues a new AuthorityOwnerGeneration (spec §3.2)";
}

}  // namespace spotcheck::properties
