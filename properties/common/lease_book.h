// What the trace told about every host run's owner lease (spec §3.1, §5): the latest ExpiresAt
// and admission deadline it adopted, whether it was lost, and whether its process died.
// Fed by lease.* events and the simulator's process events; checkers only read it.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "impl/location/events/lease_events.h"
#include "properties/common/host_run.h"
#include "properties/common/store_clock.h"
#include "properties/common/string_map.h"
#include "sim/trace/trace_event.h"

namespace spotcheck::properties {

struct LeaseFacts {
  HostRun run;
  bool registered = false;
  std::int32_t node = sim::kWorldNode;  // the node that registered it
  std::uint64_t registered_event = 0;
  // The latest ExpiresAt (store ms) of a lease record this host run adopted, and its event.
  std::int64_t expires_ms = 0;
  std::uint64_t expires_event = 0;
  // The latest local admission deadline reported (the node's clock).
  platform::TimeUs deadline_us = 0;
  // The latest deadline the observations allow (spec §5), on the node's clock: the largest
  // local_before_us + (ExpiresAt - StoreNow) - fencing margin of the lease events, and its event.
  // No admission deadline the host reports, and no act it admits, may lie past it.
  bool deadline_bounded = false;  // a lease event gave a bound
  platform::TimeUs deadline_bound_us = 0;
  std::uint64_t deadline_bound_event = 0;
  bool lost = false;
  std::uint64_t lost_event = 0;
  std::int64_t lost_store_ms = 0;  // StoreNow at the virtual instant lease.lost was emitted
  bool dead = false;               // its process was killed or exited
  std::uint64_t dead_event = 0;
};

// The §5 deadline one lease observation allows: local_before_us + (ExpiresAt - StoreNow) - margin.
platform::TimeUs admission_bound_us(const location::events::LeaseAdopted& adopted);

class LeaseBook {
 public:
  explicit LeaseBook(StoreClock clock) : _clock(clock) {}

  // Takes lease.registered/renewed/lost/admission_reopened and process kill/exit; ignores
  // everything else. Returns true when the event changed a fact.
  bool observe(const sim::TraceEvent& event);

  const LeaseFacts* find(std::string_view owner) const;
  const StoreClock& clock() const { return _clock; }

 private:
  LeaseFacts& facts_of(std::string_view owner);
  bool on_adopted(const sim::TraceEvent& event);  // lease.registered | lease.renewed

  StoreClock _clock;
  StringMap<LeaseFacts> _leases;
  std::unordered_map<std::int32_t, std::string> _node_owner;  // node -> its current host run
};

}  // namespace spotcheck::properties
