// Facts about owner epochs, gathered from events in any order. An owner epoch is one
// (object, ObjectGeneration, AuthorityOwnerGeneration): within it the row has exactly one owner
// host run and one placement (spec §3.2, §6.1), it starts with the Commit (owner gen 1) or the
// NewOwner that issued the owner gen, and ends with the next NewOwner or the row's removal.
//
// Events about one object may arrive out of store order (a delayed reply reports an earlier
// write later), so facts are compared by their store-time bounds, never by arrival order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "properties/common/host_run.h"
#include "properties/common/store_clock.h"
#include "properties/common/string_map.h"

namespace spotcheck::properties {

struct EpochFacts {
  // The owner host run, from the first event that named it.
  bool owner_known = false;
  HostRun owner;
  std::uint64_t owner_event = 0;
  // The node (mesh, rid) the row's allocation was placed on.
  bool placement_known = false;
  std::string mesh;
  std::string rid;
  std::uint64_t placement_event = 0;
  // Latest known lower bound of the write that started the epoch (Commit / NewOwner).
  bool started = false;
  std::int64_t start_lower_ms = kUnknownLowerMs;
  std::uint64_t start_event = 0;
  // Earliest known upper bound of the write that ended it (next NewOwner / Abort / Delete).
  bool ended = false;
  std::int64_t end_upper_ms = kUnknownUpperMs;
  std::uint64_t end_event = 0;
  bool end_exact = false;  // an ending write with resolved=0 was seen (its apply instant is known)
  // The Reserved row version of an incarnation (owner gen 1) is consumed by exactly one write:
  // its Commit, or its Abort / sweep delete. Set by a resolved=0 consumer.
  bool reservation_consumed = false;
  std::uint64_t reservation_event = 0;
  // The latest provable use (a write or handler run on the epoch) and the earliest one.
  std::int64_t last_use_lower_ms = kUnknownLowerMs;
  std::uint64_t last_use_event = 0;
  std::int64_t first_use_upper_ms = kUnknownUpperMs;
  std::uint64_t first_use_event = 0;

  // Records the owner / placement; false when the epoch already had a different one.
  bool claim_owner(const HostRunRef& run, std::uint64_t event);
  bool claim_placement(std::string_view mesh_name, std::string_view routing_id_hex, std::uint64_t event);
  void note_start(const ApplyBounds& bounds, std::uint64_t event);
  void note_end(const ApplyBounds& bounds, std::uint64_t event);
  void note_use(const ApplyBounds& bounds, std::uint64_t event);
  // A use provably after the end, or provably before the start.
  bool used_after_end() const { return ended && last_use_lower_ms != kUnknownLowerMs && last_use_lower_ms > end_upper_ms; }
  bool used_before_start() const {
    return started && start_lower_ms != kUnknownLowerMs && first_use_upper_ms != kUnknownUpperMs &&
           first_use_upper_ms < start_lower_ms;
  }
};

class EpochLedger {
 public:
  EpochFacts& at(std::string_view object, std::int64_t object_gen, std::int64_t owner_gen);
  const EpochFacts* find(std::string_view object, std::int64_t object_gen, std::int64_t owner_gen) const;
  std::size_t size() const { return _epochs.size(); }

 private:
  StringMap<EpochFacts> _epochs;
};

}  // namespace spotcheck::properties
