#include "properties/common/epoch_ledger.h"

#include "properties/common/describe.h"

namespace spotcheck::properties {

bool EpochFacts::claim_owner(const HostRunRef& run, std::uint64_t event) {
  if (!owner_known) {
    owner_known = true;
    owner = HostRun(run);
    owner_event = event;
    return true;
  }
  return owner.same(run);
}

bool EpochFacts::claim_placement(std::string_view mesh_name, std::string_view routing_id_hex, std::uint64_t event) {
  if (!placement_known) {
    placement_known = true;
    mesh = std::string(mesh_name);
    rid = std::string(routing_id_hex);
    placement_event = event;
    return true;
  }
  return mesh == mesh_name && rid == routing_id_hex;
}

void EpochFacts::note_start(const ApplyBounds& bounds, std::uint64_t event) {
  if (!started || (bounds.lower_known() && (start_lower_ms == kUnknownLowerMs || bounds.lower > start_lower_ms))) {
    start_lower_ms = bounds.lower;
    start_event = event;
  }
  started = true;
}

void EpochFacts::note_end(const ApplyBounds& bounds, std::uint64_t event) {
  if (!ended || bounds.upper < end_upper_ms) {
    end_upper_ms = bounds.upper;
    end_event = event;
  }
  ended = true;
}

void EpochFacts::note_use(const ApplyBounds& bounds, std::uint64_t event) {
  if (bounds.lower_known() && (last_use_lower_ms == kUnknownLowerMs || bounds.lower > last_use_lower_ms)) {
    last_use_lower_ms = bounds.lower;
    last_use_event = event;
  }
  if (bounds.upper_known() && bounds.upper < first_use_upper_ms) {
    first_use_upper_ms = bounds.upper;
    first_use_event = event;
  }
}

EpochFacts& EpochLedger::at(std::string_view object, std::int64_t object_gen, std::int64_t owner_gen) {
  std::string key = epoch_key(object, object_gen, owner_gen);
  auto found = _epochs.find(key);
  if (found == _epochs.end()) {
    found = _epochs.emplace(std::move(key), EpochFacts{}).first;
  }
  return found->second;
}

const EpochFacts* EpochLedger::find(std::string_view object, std::int64_t object_gen, std::int64_t owner_gen) const {
  const auto found = _epochs.find(epoch_key(object, object_gen, owner_gen));
  return found == _epochs.end() ? nullptr : &found->second;
}

}  // namespace spotcheck::properties
