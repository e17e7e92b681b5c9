// The owner lease of one host run (spec §3.1, §5).
//
// register_lease() issues a fresh OwnerId (UUID v4 from platform::Random) and a LeaseGeneration
// from the bounded lease-generation counter, and writes the owner lease record in the same
// all-or-nothing request (ExpectAbsent on the lease key; ExpiresAt = store time + TTL). renew()
// extends ExpiresAt by CAS on the lease record's StoreVersion; it never changes the
// LeaseGeneration. Every register/read/renew result refreshes the host-wide local admission
// deadline (lease/admission_deadline.h). Past the deadline, or once the store shows a different
// host-run combination under our key, admit() refuses every blocked operation with
// kAdmissionClosed.
//
// A renew whose reply is lost or that conflicts is resolved by re-reading the lease record (§10):
// only this host run ever writes its own OwnerId's key, so whatever the key holds is either a
// record of ours or proof that the lease is gone. A lease that is gone, or that may have expired
// before the store applied a renew, is lost for good: this host run never admits new work again.
//
// Threading: one host process runs its tasks cooperatively; store calls park the calling task.
// The renew task and operations that call admit()/reconfirm() interleave only at store calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "impl/location/config/location_config.h"
#include "impl/location/errors.h"
#include "impl/location/generation/generation_counter.h"
#include "impl/location/lease/admission_deadline.h"
#include "impl/platform/platform.h"
#include "impl/records/authority_record.h"
#include "impl/records/owner_lease_record.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location {

// The (OwnerId, LeaseGeneration) combination of one host run (§3.1).
struct HostRun {
  std::string owner_id;
  std::uint64_t lease_generation = 0;

  friend bool operator==(const HostRun&, const HostRun&) = default;
};

// Whether an authority row is owned by `run`: its (ownerId, ownerLeaseGeneration) are run's (§3.3).
inline bool owned_by(const records::AuthorityRecord& record, const HostRun& run) {
  return record.owner_id == run.owner_id && record.owner_lease_generation == run.lease_generation;
}

// Whether an owner-lease record read at StoreNow `now_ms` holds the host run (`owner_id`,
// `lease_generation`): that run's record, its ExpiresAt after StoreNow (§3.1, §5).
inline bool lease_holds(const records::OwnerLeaseRecord& lease, std::string_view owner_id,
                        std::uint64_t lease_generation, store::StoreNowMs now_ms) {
  return lease.owner_id == owner_id && lease.lease_generation == lease_generation && lease.expires_at_epoch_ms > now_ms;
}

class OwnerLease {
 public:
  // `config` must have passed validate(). The references must outlive this object.
  OwnerLease(const LocationConfig& config, platform::Platform& platform,
             store::LocationStore& store);
  OwnerLease(const OwnerLease&) = delete;
  OwnerLease& operator=(const OwnerLease&) = delete;

  // Startup, once. kConfiguration: the timing breaks §5 (validate()); the host run does not
  // start and nothing is read or written. kGenerationExhausted leaves the store unchanged; calling
  // again gives the same result. kStoreError/kIndeterminate: the caller may call again.
  Result<Done> register_lease();

  // One renew round of at most renew_attempts_max attempts, each bounded by the renew timeout.
  Result<Done> renew();

  // Re-reads the lease record after a write conditioned on it conflicted (§10): adopts a newer
  // record of ours (its version and ExpiresAt), or marks the lease lost.
  Result<Done> reconfirm();

  // Background renewal: a task that renews every renew interval (sooner after a failed round)
  // until stop_renewing() or until the lease is lost. This object must outlive the task:
  // stop_renewing() and wait for renewing() == false before destroying it.
  void start_renewing();
  void stop_renewing();
  bool renewing() const { return _task_running; }

  // Admission (§5): registered, not lost, and local now < local admission deadline.
  bool admission_open() const;
  // admission_open(), or kAdmissionClosed after emitting admission.refused{operation} (and
  // lease.admission_closed the first time the deadline is found passed).
  Result<Done> admit(std::string_view operation);

  bool registered() const { return _registered; }
  bool lost() const { return _lost; }
  const HostRun& host_run() const;
  const store::Key& record_key() const;
  store::StoreVersion record_version() const;
  std::int64_t expires_at_ms() const;
  TimeUs admission_deadline_us() const;
  // This host's estimate of the store clock now (never behind it).
  store::StoreNowMs estimated_store_now_ms() const;
  // A local deadline as a command carries it, on the store clock: that estimate now plus the whole
  // milliseconds left (none once the deadline passed).
  store::StoreNowMs store_deadline_ms(TimeUs local_deadline_us) const;

 private:
  struct Adopted {
    std::int64_t expires_at_ms = 0;
    store::StoreVersion version;
    LeaseObservation observation;
  };
  std::optional<Error> check_startup();
  Attempt<Done> register_attempt();
  Attempt<Done> renew_attempt();
  // Re-read resolution of a lease write. `written` are the bytes the unresolved write put.
  Result<Done> resolve_by_reread(const store::Bytes* written, std::string_view why);
  // `resolved`: the record was found by a re-read (1 in the event), not in a write's own reply.
  void adopt(const Adopted& adopted, std::string_view kind_for_event, bool resolved);
  void mark_lost(std::string_view reason);
  bool lease_surely_unexpired(TimeUs local_now_us) const;
  void renew_loop();
  TimeUs now_us() const { return _platform.clock.now_us(); }
  std::int64_t lease_gen() const { return static_cast<std::int64_t>(_host_run.lease_generation); }
  void emit_lease_generation_exhausted(const CounterRead& counter);
  void emit_indeterminate(std::string_view op);

  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;

  HostRun _host_run;
  store::Key _record_key;
  bool _registered = false;
  bool _lost = false;
  bool _renew_in_progress = false;
  bool _task_running = false;
  bool _stop_requested = false;
  mutable bool _closed_reported = false;
  store::StoreVersion _version;
  std::int64_t _expires_at_ms = 0;
  LeaseObservation _last_observation;
  TimeUs _deadline_us = 0;
  std::unique_ptr<platform::Gate> _stop_gate;
};

}  // namespace spotcheck::location
