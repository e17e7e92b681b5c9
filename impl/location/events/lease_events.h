// The typed owner-lease, admission, generation and store-indeterminate events (docs/events.md
// "Owner lease and admission", "Generations"): one struct per kind, its fields declared once in
// fields(). Emitted by lease/owner_lease.cpp (lease.*, admission.refused, generation.exhausted of
// the lease generation, store.indeterminate of lease.register|renew) and
// authority/authority_ops.cpp (generation.exhausted of ObjectGeneration and
// AuthorityOwnerGeneration, store.indeterminate of the authority writes); read back by the
// property checkers (properties/common/lease_book.cpp, properties/checkers/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/platform/event_fields.h"

namespace spotcheck::location::events {

// lease.registered | lease.renewed: a new owner lease record of ours was adopted.
// Emitted for a new record and whenever a later observation of the same record moves the
// deadline later: the observation's send time and the margin let a checker bound the deadline
// (§5: local_before_us + (ExpiresAt - StoreNow) - fencing margin) without trusting it.
struct LeaseAdopted {
  static constexpr std::size_t kFieldsMax = 9;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t expires_ms = 0;    // the record's expiresAtEpochMs
  std::int64_t store_now_ms = 0;  // StoreNow of the observation
  std::int64_t deadline_us = 0;   // the local admission deadline after it
  std::int64_t version = 0;       // StoreVersion of the record
  std::int64_t resolved = 0;      // 1: adopted by a re-read after an Indeterminate write
  std::int64_t local_before_us = 0;  // local time just before the observation's request was sent
  std::int64_t margin_us = 0;        // the host's owner lease fencing margin
};
template <class Io, platform::FieldsOf<LeaseAdopted> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("expires_ms", e.expires_ms);
  io("store_now_ms", e.store_now_ms);
  io("deadline_us", e.deadline_us);
  io("version", e.version);
  io("resolved", e.resolved);
  io("local_before_us", e.local_before_us);
  io("margin_us", e.margin_us);
}

// lease.admission_closed: the first refusal after admission closed.
struct LeaseAdmissionClosed {
  static constexpr std::size_t kFieldsMax = 5;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t deadline_us = 0;
  std::int64_t now_us = 0;
  std::int64_t lost = 0;  // 1: the lease was lost (not merely past the deadline)
};
template <class Io, platform::FieldsOf<LeaseAdmissionClosed> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("deadline_us", e.deadline_us);
  io("now_us", e.now_us);
  io("lost", e.lost);
}

// lease.admission_reopened: a renewal moved the deadline past now again.
struct LeaseAdmissionReopened {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t deadline_us = 0;
};
template <class Io, platform::FieldsOf<LeaseAdmissionReopened> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("deadline_us", e.deadline_us);
}

// admission.refused: an operation refused by the §5 admission check.
struct AdmissionRefused {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view op;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::int64_t now_us = 0;
};
template <class Io, platform::FieldsOf<AdmissionRefused> E>
void fields(Io& io, E& e) {
  io("op", e.op);
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("now_us", e.now_us);
}

// lease.lost: the host run stops being an owner for good.
struct LeaseLost {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view reason;
  std::int64_t now_us = 0;
};
template <class Io, platform::FieldsOf<LeaseLost> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("reason", e.reason);
  io("now_us", e.now_us);
}

// lease.startup_checked: the §5 startup check of a host run's timing (accepted 0: the host run
// does not start; reason: the ConfigErrorKind's text).
struct LeaseStartupChecked {
  static constexpr std::size_t kFieldsMax = 6;
  std::int64_t accepted = 0;
  std::string_view reason;
  std::int64_t renew_interval_us = 0;
  std::int64_t renew_timeout_us = 0;
  std::int64_t ttl_us = 0;
  std::int64_t margin_us = 0;
};
template <class Io, platform::FieldsOf<LeaseStartupChecked> E>
void fields(Io& io, E& e) {
  io("accepted", e.accepted);
  io("reason", e.reason);
  io("renew_interval_us", e.renew_interval_us);
  io("renew_timeout_us", e.renew_timeout_us);
  io("ttl_us", e.ttl_us);
  io("margin_us", e.margin_us);
}

// lease.register_failed.
struct LeaseRegisterFailed {
  static constexpr std::size_t kFieldsMax = 2;
  std::string_view owner;
  std::string_view outcome;  // an ErrorKind's text
};
template <class Io, platform::FieldsOf<LeaseRegisterFailed> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("outcome", e.outcome);
}

// lease.renew_failed: the renewal loop gave up for this round.
struct LeaseRenewFailed {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view owner;
  std::int64_t lease_gen = 0;
  std::string_view outcome;  // an ErrorKind's text
  std::int64_t now_us = 0;
};
template <class Io, platform::FieldsOf<LeaseRenewFailed> E>
void fields(Io& io, E& e) {
  io("owner", e.owner);
  io("lease_gen", e.lease_gen);
  io("outcome", e.outcome);
  io("now_us", e.now_us);
}

// generation.exhausted: a generation sequence would pass its bound; nothing was written.
struct GenerationExhausted {
  static constexpr std::size_t kFieldsMax = 3;
  std::string_view counter;  // lease-generation | object-generation | authority-owner-generation
  bool has_id = false;       // authority-owner-generation: the object whose row is exhausted
  std::string_view id{};
  bool has_value = false;    // the counter's value read, when the check came before the write
  std::int64_t value = 0;
};
template <class Io, platform::FieldsOf<GenerationExhausted> E>
void fields(Io& io, E& e) {
  io("counter", e.counter);
  if (io.group(e.has_id, "id")) {
    io("id", e.id);
  }
  if (io.group(e.has_value, "value")) {
    io("value", e.value);
  }
}

// store.indeterminate: a write's outcome is unknown (the reply was lost or late).
struct StoreIndeterminate {
  static constexpr std::size_t kFieldsMax = 4;
  std::string_view op;  // lease.register | lease.renew | an authority operation
  bool has_id = false;  // authority writes: the object and how the re-read resolved it
  std::string_view id{};
  std::string_view resolution{};  // not_applied | unknown
  bool has_owner = false;         // lease writes: the host run's OwnerId
  std::string_view owner{};
};
template <class Io, platform::FieldsOf<StoreIndeterminate> E>
void fields(Io& io, E& e) {
  io("op", e.op);
  if (io.group(e.has_id, "id")) {
    io("id", e.id);
    io("resolution", e.resolution);
  }
  if (io.group(e.has_owner, "owner")) {
    io("owner", e.owner);
  }
}

}  // namespace spotcheck::location::events
