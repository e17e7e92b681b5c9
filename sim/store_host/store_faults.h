// How the simulated link to the store misbehaves (spec §10's cases). Probabilities per request.
#pragma once

#include "sim/ids.h"

namespace spotcheck::sim {

struct StoreFaults {
  double request_loss = 0.0;  // the request never reaches the store: nothing applied
  double reply_loss = 0.0;    // the store applied the request; its reply is lost
  double reply_delay = 0.0;   // the reply arrives only after the caller's deadline
  // A Location Store write whose mutations include a Delete is held at the store for a delay
  // uniform in [0, delete_hold_max_us] before it applies (0: never held). A slow Delete, e.g. a
  // Close's, widens the window where a request meets a record about to go.
  TimeUs delete_hold_max_us = 0;
  // A write (Location Store write, payload put or remove) that applies late: held at the store
  // until its caller's deadline has passed, then half the time up to 8 ms more and otherwise up
  // to late_apply_max_us more (uniform), so it may land before the caller's re-read, between the
  // re-read and a retry, after the retry, or after a newer write (§10). The caller sees
  // Indeterminate (the reply, if any, comes after its deadline).
  double late_apply = 0.0;
  TimeUs late_apply_max_us = 0;
  // An owner lease renew write (RequestKind::kLeaseRenew) is lost on the way, applied with its
  // reply lost, refused, or applied late — past its caller's deadline, up to 8 s more — (a
  // quarter each); reads and other writes are served as usual.
  double renew_loss = 0.0;
  // As a store reply reaches its node: the node freezes for a time uniform in [1 s,
  // pause_on_reply_max_us] (World::pause) before the task that waited acts on the reply.
  double pause_on_reply = 0.0;
  TimeUs pause_on_reply_max_us = 0;
  // Per request: its node freezes (World::pause) for a time uniform in [1 s, freeze_drop_max_us]
  // and the request is lost with the connection, or, half the time, the store applies it and the
  // reply is lost; the freeze begins as the request leaves, or as the lost reply would have left.
  double freeze_drop = 0.0;
  TimeUs freeze_drop_max_us = 0;
  // While > 0: scans are served in pages of 1-3 entries (drawn per page), and a page asked for
  // with a continuation is ScanExpired with this probability (the store forgot the scan).
  double scan_expiry = 0.0;
  // A stored payload read again after its first read (a restore, not the writer's verification)
  // is damaged with this probability, at most once per reference, a third each: invisible for up
  // to StoreServer::kPayloadInvisibleMaxUs (reads answer Missing, then it is back), lost, or
  // corrupted (one bit flipped). §10: the reader re-reads a temporarily invisible payload, and a
  // lost or changed one is DataLost.
  double payload_damage = 0.0;
};

// What a store outage does with the requests that arrive during it.
enum class OutageMode {
  kRefuse,  // a fast refusal: StoreError kUnavailable, nothing applied
  kStall,   // a stalled server: requests queue, and apply in arrival order when the outage ends
};

}  // namespace spotcheck::sim
