// The local admission deadline (spec §5): the last local monotonic instant at which this host may
// accept new work under its owner lease.
//
// Derivation. A store request sent at local time `local_before_us` is served at some store instant
// whose reading is StoreNow. That instant lies after the send, so — measured on a clock that runs
// at the store clock's rate — the lease ends no earlier than
//     local_before_us + (ExpiresAt - StoreNow)
// however long the request or its reply took (a slow reply only makes the bound more conservative;
// `local_after_us` is never needed to move the deadline later). The fencing margin absorbs the
// rate difference between the local and the store clock and the time a write issued just before
// the deadline may spend in flight:
//     deadline = local_before_us + (ExpiresAt - StoreNow) * 1000 - fencing_margin_us
// Admission is open while local now < deadline. The reply arrival `local_after_us` is asserted to be
// after the send; when the reply arrives already past the computed deadline, admission is closed
// from the start.
#pragma once

#include <cstdint>

#include "impl/platform/time.h"
#include "impl/store/spi/types.h"

namespace spotcheck::location {

using platform::TimeUs;

// One observation of the caller's own owner lease record: a register/read/renew result.
struct LeaseObservation {
  TimeUs local_before_us = 0;             // local monotonic time just before sending the request
  TimeUs local_after_us = 0;              // local monotonic time once the reply arrived
  store::StoreNowMs store_now_ms = 0;     // StoreNow of the result
  std::int64_t expires_at_ms = 0;         // ExpiresAt of the lease record the result saw
};

// deadline = local_before_us + (ExpiresAt - StoreNow) - fencing margin, saturating at the TimeUs
// range. An already expired lease gives a deadline at or before local_before_us - margin.
TimeUs admission_deadline_us(const LeaseObservation& observation, TimeUs fencing_margin_us);

// Local estimate of the store clock at `local_now_us`, from an observation. It never falls behind
// the true store time (StoreNow was read after local_before_us), so a lease written with
// ExpiresAt = estimate + TTL lasts at least TTL.
store::StoreNowMs estimated_store_now_ms(const LeaseObservation& observation, TimeUs local_now_us);

}  // namespace spotcheck::location
