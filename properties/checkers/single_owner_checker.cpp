#include "properties/checkers/single_owner_checker.h"

#include "impl/location/events/object_events.h"

#include "properties/common/describe.h"
#include "properties/common/read_event.h"
#include "impl/location/events/creation_events.h"
#include "impl/location/events/instance_events.h"
#include "impl/location/events/lease_events.h"
#include "impl/platform/event_kinds.h"

namespace spotcheck::properties {

using model::AuthorityOp;

namespace {

std::string epoch_text(const std::string& object_text, std::int64_t object_gen, std::int64_t owner_gen) {
  return object_text + " (ObjectGeneration " + std::to_string(object_gen) + ", AuthorityOwnerGeneration " +
         std::to_string(owner_gen) + ")";
}

}  // namespace

SingleOwnerChecker::SingleOwnerChecker(const PropertyOptions& options)
    : _leases(StoreClock{options.store_epoch_ms, {}}) {}

std::optional<std::string> SingleOwnerChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kLeaseRegistered || event.kind == kinds::kLeaseRenewed) {
    _leases.observe(event);
    return check_reported_deadline(event);
  }
  if (event.kind == kinds::kLeaseStartupChecked) {
    return on_startup_checked(event);
  }
  if (_leases.observe(event)) {
    return std::nullopt;
  }
  if (const std::optional<ParsedAuthority> parsed = authority_event_of(event)) {
    if (!parsed->change.has_value()) {
      return parsed->problem;
    }
    return on_authority(event, *parsed->change);
  }
  if (event.kind == kinds::kObjectWork) {
    return on_work(event);
  }
  if (event.kind == kinds::kObjectTurn) {
    return on_turn(event);
  }
  // A factory run starts new work under the owner lease, admitted like a handler (spec §5); so does
  // an Instance Spot message after the first. The first message was accepted with its factory run
  // (judged there) and may finish as work already accepted.
  if (event.kind == kinds::kCreationFactoryRun) {
    return on_clocked_act<location::events::CreationFactoryRun>(event, [](const auto& run) {
      return "ran the factory of " + std::string(run.id);
    });
  }
  if (event.kind == kinds::kInstanceFactoryRun) {
    return on_clocked_act<location::events::InstanceFactoryRun>(event, [](const auto& run) {
      return "ran the factory of Instance Spot " + std::string(run.id);
    });
  }
  if (event.kind == kinds::kInstanceMessageRun) {
    return on_clocked_act<location::events::InstanceMessageRun>(event, [](const auto& run) {
      return "ran message " + std::string(run.op_id) + " on Instance Spot " + std::string(run.id);
    });
  }
  return std::nullopt;
}

// An owner act whose event names its host run (owner, lease_gen), its object (id, object_gen) and
// the node's clock (now_us, deadline_us); `what` says what it did.
template <class ActEvent, class What>
std::optional<std::string> SingleOwnerChecker::on_clocked_act(const sim::TraceEvent& event, What&& what) const {
  const auto read = read_event<ActEvent>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const ActEvent& run = read.event;
  const OwnerAct act{HostRunRef{run.owner, run.lease_gen}, true, run.now_us, run.deadline_us};
  return check_lease_for_act(event, act, [&] {
    return where(event) + " " + std::string(event.kind) + ": " + describe(act.actor) + " " + what(run) +
           " (ObjectGeneration " + std::to_string(run.object_gen) + ")";
  });
}

namespace {

// The §5 bound as a violation names it: its value and the lease event that set it.
std::string bound_text(const LeaseFacts& lease, const std::string& cited) {
  return "past the latest its owner lease observations allow, " + std::to_string(lease.deadline_bound_us) + "us (" +
         cited + ": send time + (ExpiresAt - StoreNow) - fencing margin, spec §5)";
}

}  // namespace

std::optional<std::string> SingleOwnerChecker::on_authority(const sim::TraceEvent& event,
                                                            const AuthorityEvent& change) {
  if (!change.applied()) {
    return std::nullopt;
  }
  const std::string object_text = change.describe_object();
  const std::string object = change.object();
  const ApplyBounds bounds = change.bounds();
  const bool owner_only = change.op == AuthorityOp::kCommit || change.op == AuthorityOp::kPreserve ||
                          change.op == AuthorityOp::kDelete;
  if (owner_only && !(change.by == change.owner)) {
    return where(event) + " " + describe_write(change, event.index) + ": " + describe(change.by) + " " +
           model::to_string(change.op) + " " + epoch_text(object_text, change.object_gen, change.owner_gen) +
           " while " + describe(change.owner) + " owns it: only the owner may (spec §6.1)";
  }
  EpochFacts& epoch = _epochs.at(object, change.object_gen, change.owner_gen);
  if (!epoch.claim_owner(change.owner, event.index)) {
    return where(event) + " " + describe_write(change, event.index) + ": two host runs hold authority for " +
           epoch_text(object_text, change.object_gen, change.owner_gen) + ": " + describe(epoch.owner) + " (" +
           cite(epoch.owner_event) + ") and " + describe(change.owner);
  }
  switch (change.op) {
    case AuthorityOp::kReserve:
    case AuthorityOp::kAbort:
      return std::nullopt;  // a Reserved row accepts no work
    case AuthorityOp::kCommit:
      epoch.note_start(bounds, event.index);
      break;
    case AuthorityOp::kPreserve:
      epoch.note_use(bounds, event.index);
      break;
    case AuthorityOp::kDelete:
      if (change.state == "active") {
        epoch.note_end(bounds, event.index);
      }
      break;
    case AuthorityOp::kNewOwner: {
      EpochFacts& previous = _epochs.at(object, change.object_gen, change.prev_owner_gen);
      if (!previous.claim_owner(change.prev_owner, event.index)) {
        return where(event) + " " + describe_write(change, event.index) + ": two host runs hold authority for " +
               epoch_text(object_text, change.object_gen, change.prev_owner_gen) + ": " + describe(previous.owner) +
               " (" + cite(previous.owner_event) + ") and " + describe(change.prev_owner);
      }
      previous.note_end(bounds, event.index);
      if (auto problem = check_epoch(event, previous, object_text, change.object_gen, change.prev_owner_gen)) {
        return problem;
      }
      epoch.note_start(bounds, event.index);
      break;
    }
  }
  return check_epoch(event, epoch, object_text, change.object_gen, change.owner_gen);
}

std::optional<std::string> SingleOwnerChecker::on_work(const sim::TraceEvent& event) {
  const auto read = read_event<sim::events::ObjectWork>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const sim::events::ObjectWork& work = read.event;
  const std::string_view kind = work.has_kind ? work.kind : std::string_view("actor");
  return on_handler(event, HandlerRun{kind, work.id, work.object_gen, work.owner_gen,
                                      OwnerAct{HostRunRef{work.owner, work.lease_gen}, work.has_clock != 0,
                                               work.now_us, work.deadline_us},
                                      "ran the handler of"});
}

// A turn of the object runtime (a message or a timer callback) is a handler run with its clock.
std::optional<std::string> SingleOwnerChecker::on_turn(const sim::TraceEvent& event) {
  const auto read = read_event<location::events::ObjectTurn>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const location::events::ObjectTurn& turn = read.event;
  return on_handler(event, HandlerRun{turn.kind, turn.id, turn.object_gen, turn.owner_gen,
                                      OwnerAct{HostRunRef{turn.owner, turn.lease_gen}, true, turn.now_us,
                                               turn.deadline_us},
                                      turn.turn == "timer" ? "ran a timer callback of" : "ran a message of"});
}

std::optional<std::string> SingleOwnerChecker::on_handler(const sim::TraceEvent& event, const HandlerRun& run) {
  const std::string object_text = describe_object(run.kind, run.id);
  const HostRunRef& actor = run.act.actor;
  auto subject = [&] {  // built only for a violation
    return where(event) + " " + std::string(event.kind) + ": " + describe(actor) + " " + std::string(run.what) + " " +
           object_text;
  };
  if (auto problem = check_lease_for_act(event, run.act, subject)) {
    return problem;
  }
  EpochFacts& epoch = _epochs.at(object_key(run.kind, run.id), run.object_gen, run.owner_gen);
  if (!epoch.claim_owner(actor, event.index)) {
    return where(event) + " " + std::string(event.kind) + ": " + describe(actor) + " " + std::string(run.what) + " " +
           epoch_text(object_text, run.object_gen, run.owner_gen) + ", which " + describe(epoch.owner) + " owns (" +
           cite(epoch.owner_event) + "): two host runs accept work for one object";
  }
  epoch.note_use(ApplyBounds::exact(_leases.clock().at(event.time_us)), event.index);
  return check_epoch(event, epoch, object_text, run.object_gen, run.owner_gen);
}

// A handler runs only while the host run may accept new work (spec §5): its lease not lost, the
// store clock before the lease's ExpiresAt, and (when reported) its local clock before its deadline.
std::optional<std::string> SingleOwnerChecker::check_lease_for_act(const sim::TraceEvent& event, const OwnerAct& act,
                                                                   const std::function<std::string()>& subject) const {
  const HostRunRef& actor = act.actor;
  const LeaseFacts* lease = _leases.find(actor.owner);
  if (lease == nullptr || !lease->registered) {
    return subject() + " without a registered owner lease";
  }
  if (lease->run.lease_gen != actor.lease_gen) {
    return subject() + " but its owner lease record carries LeaseGeneration " + std::to_string(lease->run.lease_gen);
  }
  if (lease->lost) {
    return subject() + " after its owner lease was lost (" + cite(lease->lost_event) +
           "): admission stays closed for the rest of the host run (spec §5)";
  }
  const std::int64_t now_ms = _leases.clock().at(event.time_us);
  if (now_ms >= lease->expires_ms) {
    return subject() + " at " + store_ms_text(now_ms, _leases.clock().epoch_ms) +
           ", at or after its owner lease's latest ExpiresAt " + store_ms_text(lease->expires_ms, _leases.clock().epoch_ms) +
           " (" + cite(lease->expires_event) + "): the local admission deadline must close first (spec §5)";
  }
  if (act.has_clock) {
    return check_local_clock(subject, *lease, act.now_us, act.deadline_us);
  }
  return std::nullopt;
}

// An act the host reports with its local clock: before the deadline it reports, and that deadline
// no later than its lease observations allow (spec §5), so a wrong deadline is caught too.
std::optional<std::string> SingleOwnerChecker::check_local_clock(const std::function<std::string()>& subject,
                                                                 const LeaseFacts& lease, std::int64_t now_us,
                                                                 std::int64_t deadline_us) const {
  if (now_us >= deadline_us) {
    return subject() + " at local time " + std::to_string(now_us) + "us, not before its admission deadline " +
           std::to_string(deadline_us) + "us (spec §5)";
  }
  if (deadline_us > lease.deadline_bound_us) {
    return subject() + " under an admission deadline of " + std::to_string(deadline_us) + "us, " +
           bound_text(lease, cite(lease.deadline_bound_event));
  }
  return std::nullopt;
}

// lease.registered | lease.renewed: the deadline the host adopted is no later than the bound of
// the observations so far (this one included), and the host runs with a positive fencing margin.
std::optional<std::string> SingleOwnerChecker::check_reported_deadline(const sim::TraceEvent& event) const {
  const auto read = read_event<location::events::LeaseAdopted>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const location::events::LeaseAdopted& adopted = read.event;
  const HostRunRef run{adopted.owner, adopted.lease_gen};
  if (adopted.margin_us <= 0) {
    return where(event) + " " + std::string(event.kind) + ": " + describe(run) +
           " runs with a fencing margin of " + std::to_string(adopted.margin_us) + "us; it must be positive (spec §5)";
  }
  const LeaseFacts* lease = _leases.find(adopted.owner);
  if (lease == nullptr) {  // observe() records every lease event that names an owner
    return where(event) + " " + std::string(event.kind) + " names no owner (docs/events.md)";
  }
  if (adopted.deadline_us > lease->deadline_bound_us) {
    return where(event) + " " + std::string(event.kind) + ": " + describe(run) + " adopted the admission deadline " +
           std::to_string(adopted.deadline_us) + "us, " + bound_text(*lease, cite(lease->deadline_bound_event));
  }
  return std::nullopt;
}

std::optional<std::string> SingleOwnerChecker::check_epoch(const sim::TraceEvent& event, const EpochFacts& epoch,
                                                           const std::string& object_text, std::int64_t object_gen,
                                                           std::int64_t owner_gen) const {
  const std::int64_t epoch_ms = _leases.clock().epoch_ms;
  if (epoch.used_after_end()) {
    return where(event) + ": " + describe(epoch.owner) + " acted as owner of " +
           epoch_text(object_text, object_gen, owner_gen) + " at " + store_ms_text(epoch.last_use_lower_ms, epoch_ms) +
           " (" + cite(epoch.last_use_event) + "), after its authority ended at " +
           store_ms_text(epoch.end_upper_ms, epoch_ms) + " (" + cite(epoch.end_event) +
           "): two host runs accepted work for one object";
  }
  if (epoch.used_before_start()) {
    return where(event) + ": " + describe(epoch.owner) + " acted as owner of " +
           epoch_text(object_text, object_gen, owner_gen) + " at " + store_ms_text(epoch.first_use_upper_ms, epoch_ms) +
           " (" + cite(epoch.first_use_event) + "), before its authority became Active at " +
           store_ms_text(epoch.start_lower_ms, epoch_ms) + " (" + cite(epoch.start_event) + ")";
  }
  return std::nullopt;
}

// lease.startup_checked: a host run starts only with renew interval + renew timeout < owner lease
// TTL - fencing margin, all four positive (§5: a violation is a startup error); one that keeps
// the rule is never refused for the timing.
std::optional<std::string> SingleOwnerChecker::on_startup_checked(const sim::TraceEvent& event) const {
  const auto read = read_event<location::events::LeaseStartupChecked>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const location::events::LeaseStartupChecked& checked = read.event;
  const bool positive =
      checked.renew_interval_us > 0 && checked.renew_timeout_us > 0 && checked.ttl_us > 0 && checked.margin_us > 0;
  const __int128 left = static_cast<__int128>(checked.renew_interval_us) + checked.renew_timeout_us;
  const __int128 right = static_cast<__int128>(checked.ttl_us) - checked.margin_us;
  const bool keeps_rule = positive && left < right;
  const std::string timing = "renew interval " + std::to_string(checked.renew_interval_us) + " us + renew timeout " +
                             std::to_string(checked.renew_timeout_us) + " us against owner lease TTL " +
                             std::to_string(checked.ttl_us) + " us - fencing margin " +
                             std::to_string(checked.margin_us) + " us";
  if (checked.accepted != 0 && !keeps_rule) {
    return where(event) + " lease.startup_checked: a host run started with " + timing +
           ", which breaks renew interval + renew timeout < TTL - fencing margin (§5: a startup error)";
  }
  if (checked.accepted == 0 && keeps_rule && checked.reason == "timing_relation") {
    return where(event) + " lease.startup_checked: a host run was refused for its timing, but " + timing +
           " keeps the §5 rule";
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties
