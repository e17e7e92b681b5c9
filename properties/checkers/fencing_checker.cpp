#include "properties/checkers/fencing_checker.h"

#include "impl/location/events/descriptor_events.h"
#include "impl/location/events/lease_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

using model::AuthorityOp;

FencingChecker::FencingChecker(const PropertyOptions& options) : _leases(StoreClock{options.store_epoch_ms, {}}) {}

std::optional<std::string> FencingChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kLeaseRenewed) {
    // Judged against the lease before this renewal, then recorded.
    std::optional<std::string> problem = on_lease_renewed(event);
    _leases.observe(event);
    return problem;
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
  if (event.kind == kinds::kDescriptorPublished) {
    return on_descriptor(event);
  }
  return std::nullopt;
}

std::optional<std::string> FencingChecker::check_lease(const std::function<std::string()>& subject, const HostRunRef& writer,
                                                       std::int64_t apply_ms) const {
  const std::int64_t epoch_ms = _leases.clock().epoch_ms;
  const LeaseFacts* lease = _leases.find(writer.owner);
  if (lease == nullptr || !lease->registered) {
    return subject() + ": applied on behalf of " + describe(writer) + ", which never registered an owner lease";
  }
  if (apply_ms >= lease->expires_ms) {
    return subject() + ": applied at " + store_ms_text(apply_ms, epoch_ms) + " on behalf of " + describe(writer) +
           ", whose owner lease expired at " + store_ms_text(lease->expires_ms, epoch_ms) + " (latest ExpiresAt, " +
           cite(lease->expires_event) + "): no store write succeeds for an expired lease (spec §5)";
  }
  if (lease->lost && apply_ms > lease->lost_store_ms) {
    return subject() + ": applied at " + store_ms_text(apply_ms, epoch_ms) + " on behalf of " + describe(writer) +
           ", whose owner lease was lost at " + store_ms_text(lease->lost_store_ms, epoch_ms) + " (" +
           cite(lease->lost_event) + ")";
  }
  return std::nullopt;
}

std::optional<std::string> FencingChecker::on_authority(const sim::TraceEvent& event, const AuthorityEvent& change) {
  if (!change.applied()) {
    return std::nullopt;
  }
  auto subject = [&] { return where(event) + " " + describe_write(change, event.index) + " of " + change.describe_object(); };  // built only for a violation
  if (change.by.empty()) {
    return subject() + ": an applied write names no performing host run (by_owner)";
  }
  if (!change.resolved) {
    if (auto problem = check_lease(subject, change.by, change.store_now_ms)) {
      return problem;
    }
  }
  if (auto problem = check_sent_in_time(subject, change)) {
    return problem;
  }
  return check_superseded(event, change);
}

// No new store change with expired owner eligibility (spec §5): an applied write was sent, on the
// performer's clock, before the latest admission deadline its owner lease observations allow —
// whether or not it reached the store before the lease's ExpiresAt (the fencing margin is for the
// flight, not for sending late).
std::optional<std::string> FencingChecker::check_sent_in_time(const std::function<std::string()>& subject,
                                                              const AuthorityEvent& change) const {
  const LeaseFacts* lease = _leases.find(change.by.owner);
  if (!change.sent_us.has_value() || lease == nullptr || !lease->deadline_bounded) {
    return std::nullopt;  // no send time reported, or no lease (check_lease names that)
  }
  if (*change.sent_us >= lease->deadline_bound_us) {
    return subject() + ": sent by " + describe(change.by) + " at local time " + std::to_string(*change.sent_us) +
           "us, not before the latest admission deadline its owner lease observations allow, " +
           std::to_string(lease->deadline_bound_us) + "us (" + cite(lease->deadline_bound_event) +
           "): no new store change with expired owner eligibility (spec §5)";
  }
  return std::nullopt;
}

// Each write read one row version: the epoch it read. A NewOwner reads the previous epoch; every
// other operation the epoch the event names. NewOwner / Abort / Delete end the epoch they read.
std::optional<std::string> FencingChecker::check_superseded(const sim::TraceEvent& event,
                                                            const AuthorityEvent& change) {
  if (change.op == AuthorityOp::kReserve) {
    return std::nullopt;  // conditioned on the row being absent: no epoch read
  }
  const std::int64_t read_owner_gen = change.op == AuthorityOp::kNewOwner ? change.prev_owner_gen : change.owner_gen;
  const std::string object_text = change.describe_object();
  EpochFacts& epoch = _epochs.at(change.object(), change.object_gen, read_owner_gen);
  const ApplyBounds bounds = change.bounds();
  const bool ends = change.op == AuthorityOp::kNewOwner || change.removes_row();
  const std::int64_t epoch_ms = _leases.clock().epoch_ms;
  const std::string epoch_text = object_text + " (ObjectGeneration " + std::to_string(change.object_gen) +
                                 ", AuthorityOwnerGeneration " + std::to_string(read_owner_gen) + ")";
  const bool consumes_reservation =
      change.op == AuthorityOp::kCommit || (change.removes_row() && change.state == "reserved");
  if (consumes_reservation && !change.resolved) {
    if (epoch.reservation_consumed) {
      return where(event) + " " + describe_write(change, event.index) + ": the reservation of " + epoch_text +
             " was already consumed by " + cite(epoch.reservation_event) +
             " (one Commit or one Abort per reservation); this write applied on a superseded row";
    }
    epoch.reservation_consumed = true;
    epoch.reservation_event = event.index;
  }
  if (ends) {
    // Two resolved=0 writes that both consumed the same row version: one of them applied on a
    // superseded row. (A resolved=1 write is established by a re-read, which cannot tell "removed
    // by us" from "removed by another path" for a Delete, so it is not counted here.)
    if (epoch.ended && !change.resolved && epoch.end_exact) {
      return where(event) + " " + describe_write(change, event.index) + ": " + epoch_text +
             " was already ended by " + cite(epoch.end_event) + "; a second write applied on the superseded row";
    }
    epoch.note_end(bounds, event.index);
    if (!change.resolved) {
      epoch.end_exact = true;
    }
  } else {
    epoch.note_use(bounds, event.index);
  }
  if (epoch.used_after_end()) {
    return where(event) + ": a write on " + epoch_text + " applied at " +
           store_ms_text(epoch.last_use_lower_ms, epoch_ms) + " (" + cite(epoch.last_use_event) +
           ") after the row was superseded at " + store_ms_text(epoch.end_upper_ms, epoch_ms) + " (" +
           cite(epoch.end_event) + ")";
  }
  return std::nullopt;
}

// lease.renewed with resolved=0 is the renew CAS itself: it must
// have applied before the lease it extends expired (spec §5: a lease is never revived).
std::optional<std::string> FencingChecker::on_lease_renewed(const sim::TraceEvent& event) {
  const auto read = read_event<events::LeaseAdopted>(event);
  if (!read.ok()) {
    return read.problem;
  }
  if (read.event.resolved != 0) {
    return std::nullopt;  // found by a re-read: not the renew CAS's own answer
  }
  const HostRunRef run{read.event.owner, read.event.lease_gen};
  const std::int64_t store_now_ms = read.event.store_now_ms;
  const LeaseFacts* lease = _leases.find(run.owner);
  if (lease == nullptr || !lease->registered) {
    return where(event) + " lease.renewed of " + describe(run) + " without a registered lease";
  }
  if (store_now_ms >= lease->expires_ms) {
    const std::int64_t epoch_ms = _leases.clock().epoch_ms;
    return where(event) + " lease.renewed: the renew of " + describe(run) + " applied at " +
           store_ms_text(store_now_ms, epoch_ms) + ", at or after the lease's ExpiresAt " +
           store_ms_text(lease->expires_ms, epoch_ms) + " (" + cite(lease->expires_event) +
           "): an expired lease was revived (spec §5)";
  }
  return std::nullopt;
}

// descriptor.published with resolved=0 is a write conditioned on the publisher's lease.
std::optional<std::string> FencingChecker::on_descriptor(const sim::TraceEvent& event) {
  const auto read = read_event<events::DescriptorPublished>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::DescriptorPublished& published = read.event;
  if (published.resolved != 0 || (published.outcome != "published" && published.outcome != "taken_over")) {
    return std::nullopt;
  }
  const HostRunRef run{published.owner, published.lease_gen};
  return check_lease([&] { return where(event) + " descriptor.published (" + std::string(published.outcome) + ")"; },
                     run, published.store_now_ms);
}

}  // namespace spotcheck::properties
