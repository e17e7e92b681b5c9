#include "properties/checkers/single_owner_checker.h"

#include "properties/common/describe.h"
#include "properties/common/read_event.h"
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
    : _leases(StoreClock{options.store_epoch_ms}) {}

std::optional<std::string> SingleOwnerChecker::on_event(const sim::TraceEvent& event) {
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
  return std::nullopt;
}

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
  const std::string_view id = work.id;
  const HostRunRef actor{work.owner, work.lease_gen};
  const std::int64_t object_gen = work.object_gen;
  const std::int64_t owner_gen = work.owner_gen;
  const std::string_view kind = work.has_kind ? work.kind : std::string_view("actor");
  const std::string object_text = describe_object(kind, id);
  if (auto problem = check_lease_for_act(event, work, actor, object_text)) {
    return problem;
  }
  EpochFacts& epoch = _epochs.at(object_key(kind, id), object_gen, owner_gen);
  if (!epoch.claim_owner(actor, event.index)) {
    return where(event) + " object.work: " + describe(actor) + " ran the handler of " +
           epoch_text(object_text, object_gen, owner_gen) + ", which " + describe(epoch.owner) + " owns (" +
           cite(epoch.owner_event) + "): two host runs accept work for one object";
  }
  epoch.note_use(ApplyBounds::exact(_leases.clock().at(event.time_us)), event.index);
  return check_epoch(event, epoch, object_text, object_gen, owner_gen);
}

// A handler runs only while the host run may accept new work (spec §5): its lease not lost, the
// store clock before the lease's ExpiresAt, and (when reported) its local clock before its deadline.
std::optional<std::string> SingleOwnerChecker::check_lease_for_act(const sim::TraceEvent& event,
                                                                   const sim::events::ObjectWork& work,
                                                                   const HostRunRef& actor,
                                                                   const std::string& object_text) {
  auto subject = [&] { return where(event) + " object.work: " + describe(actor) + " ran the handler of " + object_text; };  // built only for a violation
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
  if (work.has_clock && work.now_us >= work.deadline_us) {
    return subject() + " at local time " + std::to_string(work.now_us) + "us, not before its admission deadline " +
           std::to_string(work.deadline_us) + "us (spec §5)";
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

}  // namespace spotcheck::properties
