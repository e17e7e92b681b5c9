#include "impl/location/lease/owner_lease.h"

#include <algorithm>
#include <string>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/events/lease_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/generation/generation_counter.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/location/lease/owner_id.h"
#include "impl/records/keys.h"
#include "impl/records/limits.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::location {


namespace {

std::int64_t ttl_ms(const LocationConfig& config) {
  SPOTCHECK_ASSERT(config.owner_lease_ttl_us % platform::kMicrosPerMilli == 0);
  return config.owner_lease_ttl_us / platform::kMicrosPerMilli;
}

std::string store_error_text(const store::StoreError& error) {
  return std::string(store::to_string(error.kind)) + " " + error.message;
}

}  // namespace

OwnerLease::OwnerLease(const LocationConfig& config, platform::Platform& platform,
                       store::LocationStore& store)
    : _config(config), _platform(platform), _store(store) {}

const HostRun& OwnerLease::host_run() const {
  SPOTCHECK_ASSERT(_registered);
  return _host_run;
}

const store::Key& OwnerLease::record_key() const {
  SPOTCHECK_ASSERT(_registered);
  return _record_key;
}

store::StoreVersion OwnerLease::record_version() const {
  SPOTCHECK_ASSERT(_registered);
  SPOTCHECK_ASSERT(_version.value != 0);
  return _version;
}

std::int64_t OwnerLease::expires_at_ms() const {
  SPOTCHECK_ASSERT(_registered);
  return _expires_at_ms;
}

TimeUs OwnerLease::admission_deadline_us() const {
  return _registered ? _deadline_us : 0;
}

store::StoreNowMs OwnerLease::estimated_store_now_ms() const {
  SPOTCHECK_ASSERT(_registered);
  return location::estimated_store_now_ms(_last_observation, now_us());
}

store::StoreNowMs OwnerLease::store_deadline_ms(TimeUs local_deadline_us) const {
  const std::int64_t left_ms = (local_deadline_us - now_us()) / platform::kMicrosPerMilli;
  return estimated_store_now_ms() + std::max<std::int64_t>(left_ms, 0);
}

bool OwnerLease::admission_open() const {
  return _registered && !_lost && now_us() < _deadline_us;
}

Result<Done> OwnerLease::admit(std::string_view operation) {
  const TimeUs now = now_us();
  if (SPOTCHECK_PLANTED(_config.planted_bugs, kAdmitPastDeadline) && _registered) {
    return Done{};  // the §5 check is skipped
  }
  if (admission_open()) {
    SPOTCHECK_ASSERT(now < _deadline_us);
    return Done{};
  }
  if (_registered && !_closed_reported) {
    _closed_reported = true;
    platform::emit_event(_platform.events, kinds::kLeaseAdmissionClosed,
                         events::LeaseAdmissionClosed{_host_run.owner_id, lease_gen(), _deadline_us, now,
                                                      _lost ? 1 : 0});
  }
  platform::emit_event(_platform.events, kinds::kAdmissionRefused,
                       events::AdmissionRefused{operation, _host_run.owner_id, lease_gen(), now});
  return Error::of(ErrorKind::kAdmissionClosed,
                   std::string(operation) + ": " +
                       (!_registered ? "owner lease not registered"
                        : _lost      ? "owner lease lost"
                                     : "past the local admission deadline"));
}

bool OwnerLease::lease_surely_unexpired(TimeUs local_now_us) const {
  // The lease end as seen from the last observation's send time (deadline + margin).
  return local_now_us < _deadline_us + _config.fencing_margin_us;
}

void OwnerLease::adopt(const Adopted& adopted, std::string_view kind_for_event, bool resolved) {
  SPOTCHECK_ASSERT(adopted.version.value != 0);
  SPOTCHECK_ASSERT(!_lost);
  if (_registered && adopted.expires_at_ms < _expires_at_ms) {
    return;  // an older record of ours than the one already adopted (a late re-read)
  }
  const TimeUs deadline =
      location::admission_deadline_us(adopted.observation, _config.fencing_margin_us);
  const bool new_record = !_registered || adopted.version != _version;
  const bool later_deadline = _registered && deadline > _deadline_us;
  // Every observation bounds the same never-shortening lease from below: keep the latest end.
  _deadline_us = _registered ? std::max(_deadline_us, deadline) : deadline;
  if (new_record) {
    _version = adopted.version;
    _expires_at_ms = adopted.expires_at_ms;
    _last_observation = adopted.observation;
    _registered = true;
  }
  if (new_record || later_deadline) {
    platform::emit_event(_platform.events, kind_for_event,
                         events::LeaseAdopted{_host_run.owner_id, lease_gen(), _expires_at_ms,
                                              adopted.observation.store_now_ms, _deadline_us,
                                              platform::as_i64(_version.value), resolved ? 1 : 0,
                                              adopted.observation.local_before_us, _config.fencing_margin_us});
  }
  if (_closed_reported && admission_open()) {
    _closed_reported = false;
    platform::emit_event(_platform.events, kinds::kLeaseAdmissionReopened,
                         events::LeaseAdmissionReopened{_host_run.owner_id, lease_gen(), _deadline_us});
  }
}

void OwnerLease::mark_lost(std::string_view reason) {
  if (_lost) {
    return;
  }
  _lost = true;
  platform::emit_event(_platform.events, kinds::kLeaseLost,
                       events::LeaseLost{_host_run.owner_id, lease_gen(), reason, now_us()});
  SPOTCHECK_ASSERT(!admission_open());
}

void OwnerLease::emit_lease_generation_exhausted(const CounterRead& counter) {
  platform::emit_event(_platform.events, kinds::kGenerationExhausted,
                       events::GenerationExhausted{.counter = "lease-generation", .has_value = true,
                                                   .value = static_cast<std::int64_t>(counter.value)});
}

void OwnerLease::emit_indeterminate(std::string_view op) {
  platform::emit_event(_platform.events, kinds::kStoreIndeterminate,
                       events::StoreIndeterminate{.op = op, .has_owner = true, .owner = _host_run.owner_id});
}

// ---- register ---------------------------------------------------------------------------------

Result<Done> OwnerLease::register_lease() {
  SPOTCHECK_ASSERT(!_registered);
  SPOTCHECK_ASSERT(!_lost);
  if (std::optional<Error> refused = check_startup()) {
    return std::move(*refused);
  }
  for (std::uint32_t attempt = 0; attempt < _config.contention_attempts_max; ++attempt) {
    if (_host_run.owner_id.empty()) {
      _host_run.owner_id = new_owner_id(_platform.random);
      _record_key = records::owner_lease_preimage(_host_run.owner_id);
    }
    Attempt<Done> attempted = register_attempt();
    if (!attempted.retry) {
      const Result<Done>& result = attempted.result;
      if (!result.ok()) {
        platform::emit_event(_platform.events, kinds::kLeaseRegisterFailed,
                             events::LeaseRegisterFailed{_host_run.owner_id, to_string(result.error().kind)});
      }
      SPOTCHECK_ASSERT(result.ok() == _registered);
      return std::move(attempted.result);
    }
  }
  platform::emit_event(_platform.events, kinds::kLeaseRegisterFailed,
                       events::LeaseRegisterFailed{_host_run.owner_id, to_string(ErrorKind::kConflict)});
  return Error::conflict(ConflictCause::kCounterChanged,
                         "the lease generation counter kept moving under registration");
}

// §5: a timing that breaks renew interval + renew timeout < owner lease TTL - fencing margin (or
// any other rule of validate()) is a startup error: this host run never registers a lease. The
// check and the timing it judged are reported either way (lease.startup_checked).
std::optional<Error> OwnerLease::check_startup() {
  const std::optional<ConfigError> invalid = validate(_config);
  platform::emit_event(_platform.events, kinds::kLeaseStartupChecked,
                       events::LeaseStartupChecked{invalid.has_value() ? 0 : 1,
                                                   invalid.has_value() ? to_string(invalid->kind) : "",
                                                   _config.renew_interval_us, _config.renew_timeout_us,
                                                   _config.owner_lease_ttl_us, _config.fencing_margin_us});
  if (!invalid.has_value()) {
    return std::nullopt;
  }
  platform::sometimes(_platform.events, platform::Mark::kStartupRefused);
  return Error::of(ErrorKind::kConfiguration, invalid->message);
}

Attempt<Done> OwnerLease::register_attempt() {
  const store::Key counter_key = keys::lease_generation_counter();
  const TimeUs read_before = now_us();
  Result<CounterRead> counter =
      read_generation_counter(_store, counter_key, read_before + _config.renew_timeout_us);
  if (!counter.ok()) {
    return Attempt<Done>::settled(counter.error());
  }
  Result<std::uint64_t> next = next_generation(counter.value());
  if (!next.ok()) {
    emit_lease_generation_exhausted(counter.value());
    return Attempt<Done>::settled(next.error());
  }
  const LeaseObservation counter_seen{read_before, now_us(), counter.value().now_ms, 0};
  const TimeUs write_before = now_us();
  const store::StoreNowMs store_now_estimate =
      location::estimated_store_now_ms(counter_seen, write_before);
  _host_run.lease_generation = next.value();
  const records::OwnerLeaseRecord record{_host_run.owner_id, next.value(),
                                         store_now_estimate + ttl_ms(_config), store_now_estimate};
  const store::Bytes bytes = records::encode(record);

  store::WriteRequest request;
  request.conditions = {counter_condition(counter.value()), store::ExpectAbsent{_record_key}};
  request.mutations = {counter_increment(counter_key), store::Put{_record_key, bytes}};
  const store::WriteResult written =
      _store.write(request, write_before + _config.renew_timeout_us);
  const TimeUs write_after = now_us();

  if (const auto* applied = std::get_if<store::Applied>(&written)) {
    SPOTCHECK_ASSERT(applied->outcomes.size() == 2);
    SPOTCHECK_ASSERT(applied->outcomes[0].counter == static_cast<std::int64_t>(next.value()));
    adopt(Adopted{record.expires_at_epoch_ms, applied->outcomes[1].version,
                  LeaseObservation{write_before, write_after, applied->now_ms,
                                   record.expires_at_epoch_ms}},
          kinds::kLeaseRegistered, /*resolved=*/false);
    return Attempt<Done>::settled(Done{});
  }
  if (const auto* conflict = std::get_if<store::Conflict>(&written)) {
    if (conflict->reason == store::Conflict::Reason::kBoundExceeded) {
      SPOTCHECK_ASSERT(conflict->index == 0);
      emit_lease_generation_exhausted(counter.value());
      return Attempt<Done>::settled(
          Error::of(ErrorKind::kGenerationExhausted, "the lease generation counter is exhausted"));
    }
    if (conflict->index == 0) {
      // Another host run took the generation: read the counter again.
      return Attempt<Done>::again(Error::conflict(ConflictCause::kCounterChanged, "lease generation counter moved"));
    }
    // Our own key exists: a write of ours applied although its reply was lost. Adopt it.
    return Attempt<Done>::settled(resolve_by_reread(nullptr, "registration found our lease key present"));
  }
  if (const auto* error = std::get_if<store::StoreError>(&written)) {
    return Attempt<Done>::settled(
        Error::of(ErrorKind::kStoreError, "registering the owner lease: " + store_error_text(*error)));
  }
  emit_indeterminate("lease.register");
  Result<Done> resolved = resolve_by_reread(&bytes, "registration reply lost");
  // Missing: the write did not apply, nothing changed: register again.
  const bool not_applied = !resolved.ok() && resolved.error().kind == ErrorKind::kConflict &&
                           resolved.error().cause == ConflictCause::kMissing;
  return Attempt<Done>{std::move(resolved), not_applied};
}

// ---- re-read resolution -----------------------------------------------------------------------

Result<Done> OwnerLease::resolve_by_reread(const store::Bytes* written, std::string_view why) {
  // Registering: any record of ours under our key is a registration that applied — this call's
  // write or an earlier call's whose reply was lost (only this host run writes its OwnerId's key).
  const bool registering = !_registered;
  for (std::uint32_t attempt = 0; attempt < _config.indeterminate_rereads_max; ++attempt) {
    const TimeUs before = now_us();
    const store::ReadResult read = _store.read(_record_key, before + _config.renew_timeout_us);
    const TimeUs after = now_us();
    if (_lost) {
      // Another task of this host run lost the lease while this read was parked: lost is for
      // good (§5), whatever the read found.
      platform::sometimes(_platform.events, platform::Mark::kLeaseLostInReread);
      return Error::of(ErrorKind::kAdmissionClosed, std::string(why) + ": owner lease lost meanwhile");
    }
    if (std::holds_alternative<store::StoreError>(read)) {
      continue;
    }
    if (std::holds_alternative<store::Missing>(read)) {
      if (registering) {
        return Error::conflict(ConflictCause::kMissing, "the owner lease record was not written");
      }
      mark_lost(std::string(why) + ": the owner lease record is gone");
      platform::sometimes(_platform.events, platform::Mark::kLeaseLostInReread);
      return Error::of(ErrorKind::kAdmissionClosed, "owner lease lost: record missing");
    }
    const auto& found = std::get<store::Found>(read);
    const records::RecordResult<records::OwnerLeaseRecord> decoded =
        records::decode_owner_lease_record(found.value);
    const bool ours = decoded.ok() && decoded.value().owner_id == _host_run.owner_id &&
                      (registering || decoded.value().lease_generation == _host_run.lease_generation);
    if (!ours && registering) {
      // Our key holds something this host run never wrote: this OwnerId is unusable. The next
      // register_lease() draws a fresh one (§3.1: an OwnerId is never reused).
      _host_run.owner_id.clear();
      return Error::conflict(ConflictCause::kOwnedByOtherHost,
                             std::string(why) + ": the lease key holds another host run");
    }
    if (!ours) {
      mark_lost(std::string(why) + ": the store holds another host run under our key");
      platform::sometimes(_platform.events, platform::Mark::kLeaseLostInReread);
      return Error::of(ErrorKind::kAdmissionClosed, "owner lease lost: host run differs");
    }
    const records::OwnerLeaseRecord& record = decoded.value();
    SPOTCHECK_ASSERT(records::is_issued_generation(record.lease_generation));
    if (registering) {
      _host_run.lease_generation = record.lease_generation;
    }
    if (!registering && record.expires_at_epoch_ms > _expires_at_ms &&
        found.now_ms >= _expires_at_ms) {
      // A renew of ours applied at an unknown instant before this read, which may lie past the
      // ExpiresAt we held: the lease is never revived after it may have expired (§5).
      mark_lost(std::string(why) + ": a renew may have applied after the lease expired");
      platform::sometimes(_platform.events, platform::Mark::kLeaseLostInReread);
      return Error::of(ErrorKind::kAdmissionClosed, "owner lease lost: renew not provably in time");
    }
    adopt(Adopted{record.expires_at_epoch_ms, found.version,
                  LeaseObservation{before, after, found.now_ms, record.expires_at_epoch_ms}},
          registering ? kinds::kLeaseRegistered : kinds::kLeaseRenewed, /*resolved=*/true);
    SPOTCHECK_ASSERT(_registered);
    SPOTCHECK_ASSERT(_host_run.lease_generation == record.lease_generation);
    if (!registering && written != nullptr && found.value != *written) {
      // A renew: the record is an older one of ours, so this write did not apply.
      return Error::conflict(ConflictCause::kVersionChanged, "our lease write did not apply");
    }
    return Done{};
  }
  return Error::of(ErrorKind::kIndeterminate,
                   std::string(why) + ": the owner lease record could not be re-read");
}

Result<Done> OwnerLease::reconfirm() {
  SPOTCHECK_ASSERT(_registered);
  if (_lost) {
    return Error::of(ErrorKind::kAdmissionClosed, "owner lease lost");
  }
  return resolve_by_reread(nullptr, "reconfirming the owner lease");
}

// ---- renew ------------------------------------------------------------------------------------

Result<Done> OwnerLease::renew() {
  SPOTCHECK_ASSERT(_registered);
  SPOTCHECK_ASSERT(!_renew_in_progress);
  if (_lost) {
    return Error::of(ErrorKind::kAdmissionClosed, "owner lease lost");
  }
  _renew_in_progress = true;
  Result<Done> last = Error::of(ErrorKind::kStoreError, "no renew attempt ran");
  for (std::uint32_t attempt = 0; attempt < _config.renew_attempts_max && !_lost; ++attempt) {
    Attempt<Done> attempted = renew_attempt();
    last = std::move(attempted.result);
    if (!attempted.retry) {
      break;
    }
  }
  _renew_in_progress = false;
  if (!last.ok()) {
    platform::emit_event(_platform.events, kinds::kLeaseRenewFailed,
                         events::LeaseRenewFailed{_host_run.owner_id, lease_gen(),
                                                  to_string(last.error().kind), now_us()});
  }
  return last;
}

Attempt<Done> OwnerLease::renew_attempt() {
  const TimeUs before = now_us();
  if (!lease_surely_unexpired(before)) {
    mark_lost("the lease may have expired before it was renewed");
    return Attempt<Done>::settled(Error::of(ErrorKind::kAdmissionClosed, "owner lease lost: expired before renew"));
  }
  const store::StoreNowMs store_now_estimate =
      location::estimated_store_now_ms(_last_observation, before);
  // ExpiresAt strictly increases with every write of ours, so a re-read can tell which is newer.
  const std::int64_t expires_at_ms =
      std::max(store_now_estimate + ttl_ms(_config), _expires_at_ms + 1);
  const std::int64_t previous_expires_at_ms = _expires_at_ms;
  const records::OwnerLeaseRecord record{_host_run.owner_id, _host_run.lease_generation,
                                         expires_at_ms, store_now_estimate};
  const store::Bytes bytes = records::encode(record);
  store::WriteRequest request;
  request.conditions = {store::ExpectVersion{_record_key, _version}};
  request.mutations = {store::Put{_record_key, bytes}};
  const store::WriteResult written = _store.write(request, before + _config.renew_timeout_us);
  const TimeUs after = now_us();
  if (_lost) {
    // Another task lost the lease while this write was parked (a re-read found the record gone,
    // foreign, or renewed too late): lost is for good, whatever this reply says.
    return Attempt<Done>::settled(Error::of(ErrorKind::kAdmissionClosed, "owner lease lost during the renew"));
  }

  if (const auto* applied = std::get_if<store::Applied>(&written)) {
    SPOTCHECK_ASSERT(applied->outcomes.size() == 1);
    if (applied->now_ms >= previous_expires_at_ms) {
      mark_lost("the store applied the renew after the lease had expired");
      return Attempt<Done>::settled(Error::of(ErrorKind::kAdmissionClosed, "owner lease lost: renewed too late"));
    }
    adopt(Adopted{expires_at_ms, applied->outcomes[0].version,
                  LeaseObservation{before, after, applied->now_ms, expires_at_ms}},
          kinds::kLeaseRenewed, /*resolved=*/false);
    SPOTCHECK_ASSERT(_expires_at_ms == expires_at_ms);
    return Attempt<Done>::settled(Done{});
  }
  if (std::holds_alternative<store::Conflict>(written)) {
    // The record is not the one we last saw: re-read (never guess), then try again.
    Result<Done> resolved = resolve_by_reread(nullptr, "renew conflicted");
    if (!resolved.ok()) {
      return Attempt<Done>::settled(std::move(resolved));
    }
    return Attempt<Done>::again(Error::conflict(ConflictCause::kVersionChanged, "renew conflicted; re-read"));
  }
  if (const auto* error = std::get_if<store::StoreError>(&written)) {
    return Attempt<Done>::again(
        Error::of(ErrorKind::kStoreError, "renewing the owner lease: " + store_error_text(*error)));
  }
  emit_indeterminate("lease.renew");
  Result<Done> resolved = resolve_by_reread(&bytes, "renew reply lost");
  const bool conflicted = !resolved.ok() && resolved.error().kind == ErrorKind::kConflict;
  return Attempt<Done>{std::move(resolved), conflicted};
}

// ---- background renewal -----------------------------------------------------------------------

void OwnerLease::start_renewing() {
  SPOTCHECK_ASSERT(_registered);
  SPOTCHECK_ASSERT(!_task_running);
  _stop_requested = false;
  _stop_gate = _platform.tasks.make_gate();
  _task_running = true;
  _platform.tasks.spawn("owner-lease-renew", [this] { renew_loop(); });
}

void OwnerLease::stop_renewing() {
  _stop_requested = true;
  if (_stop_gate != nullptr) {
    _stop_gate->open();
  }
}

void OwnerLease::renew_loop() {
  SPOTCHECK_ASSERT(_task_running);
  // After a failed round, try again sooner than a full interval (bounded below by 1 ms).
  const TimeUs retry_delay_us =
      std::max<TimeUs>(_config.renew_interval_us / 5, platform::kMicrosPerMilli);
  TimeUs next_us = _last_observation.local_before_us + _config.renew_interval_us;
  // A service loop: it ends on stop_renewing() or when the lease is lost. Failing rounds cannot
  // spin: each waits retry_delay_us, and renew() marks the lease lost once its end has passed.
  while (!_lost && !_stop_requested) {
    if (_stop_gate->wait_until(next_us) || _stop_requested) {
      break;
    }
    const Result<Done> renewed = renew();
    next_us = now_us() + (renewed.ok() ? _config.renew_interval_us : retry_delay_us);
  }
  _task_running = false;
}

}  // namespace spotcheck::location
