#include "properties/checkers/store_truth_hosts.h"

#include <charconv>

#include "impl/platform/event_fields.h"
#include "impl/records/limits.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::properties {

namespace {

constexpr std::string_view kLeasePrefix = "owner-lease/";
constexpr std::string_view kDescriptorPrefix = "mesh-node/";
constexpr std::string_view kGenerationCounterPrefix = "counter/";
constexpr std::string_view kCapacityPrefix = "capacity/";
constexpr std::string_view kLeaseGenerationCounter = "counter/lease-generation";

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string host_run(std::string_view owner_id, std::int64_t lease_gen) {
  return std::string(owner_id) + "/" + std::to_string(lease_gen);
}

}  // namespace

std::optional<std::int64_t> AppliedWrite::counter_after(std::string_view key) const {
  for (const AppliedPart& part : parts) {
    if (part.key == key && part.mutation == "increment") {
      return part.counter;
    }
  }
  return std::nullopt;
}

std::optional<std::string> HostRowsLedger::apply(const AppliedWrite& write, const AppliedPart& part) {
  const bool lease = starts_with(part.key, kLeasePrefix);
  if (lease || starts_with(part.key, kDescriptorPrefix)) {
    if (part.mutation == "delete") {  // a release, or a shutdown's removal
      if (lease) {
        _leases.erase(part.key);
      } else {
        _descriptors.erase(part.key);
      }
      return std::nullopt;
    }
    if (part.mutation != "put") {
      return lease ? "an owner lease row was incremented" : "a descriptor row was incremented";
    }
    return lease ? judge_lease(write, part) : judge_descriptor(write, part);
  }
  if (starts_with(part.key, kGenerationCounterPrefix) || starts_with(part.key, kCapacityPrefix)) {
    return judge_counter(part);
  }
  return std::nullopt;
}

std::optional<std::string> HostRowsLedger::judge_lease(const AppliedWrite& write, const AppliedPart& part) {
  const auto live = _leases.find(part.key);
  const records::RecordResult<records::OwnerLeaseRecord> decoded = records::decode_owner_lease_record(part.value);
  if (!decoded.ok()) {
    return "the stored owner lease row does not decode";
  }
  const records::OwnerLeaseRecord& record = decoded.value();
  const Lease next{record.owner_id, platform::as_i64(record.lease_generation), record.expires_at_epoch_ms,
                   record.updated_at_epoch_ms};
  if (part.key.substr(kLeasePrefix.size()) != next.owner_id) {
    return "the row holds OwnerId " + next.owner_id + ", not its key's";
  }
  if (live == _leases.end()) {
    if (!_lease_keys_ever.insert(part.key).second) {
      return "OwnerId " + next.owner_id + " was registered again after its lease row was removed (§3.1: never reused)";
    }
    const std::optional<std::int64_t> issued = write.counter_after(kLeaseGenerationCounter);
    if (issued != next.lease_gen) {
      return "a new owner lease holds LeaseGeneration " + std::to_string(next.lease_gen) +
             (issued.has_value() ? ", but its write issued " + std::to_string(*issued)
                                 : ", but its write issued none from " + std::string(kLeaseGenerationCounter)) +
             " (§3.1)";
    }
    _leases.emplace(part.key, next);
    return std::nullopt;
  }
  Lease& before = live->second;
  if (next.lease_gen != before.lease_gen) {
    return "a renew changed LeaseGeneration " + std::to_string(before.lease_gen) + " -> " +
           std::to_string(next.lease_gen) + " (§3.1: extending expiry never changes it)";
  }
  if (next.expires_at_ms <= before.expires_at_ms) {
    return "a renew moved ExpiresAt " + std::to_string(before.expires_at_ms) + " -> " +
           std::to_string(next.expires_at_ms) + " (a renew extends it)";
  }
  if (next.updated_at_ms < before.updated_at_ms) {
    return "a renew moved UpdatedAt back " + std::to_string(before.updated_at_ms) + " -> " +
           std::to_string(next.updated_at_ms);
  }
  _renews[next.owner_id + "|" + std::to_string(next.expires_at_ms)] =
      RenewFact{write.store_now_ms, before.expires_at_ms, part.event};
  before = next;
  return std::nullopt;
}

const HostRowsLedger::RenewFact* HostRowsLedger::renew_that_wrote(std::string_view owner_id,
                                                                  std::int64_t expires_ms) const {
  const auto found = _renews.find(std::string(owner_id) + "|" + std::to_string(expires_ms));
  return found == _renews.end() ? nullptr : &found->second;
}

std::string HostRowsLedger::live_holder(const Descriptor& holder, std::int64_t store_now_ms) const {
  const auto lease = _leases.find(std::string(kLeasePrefix) + holder.owner_id);
  if (lease == _leases.end() || lease->second.lease_gen != holder.lease_gen ||
      lease->second.expires_at_ms <= store_now_ms) {
    return "";
  }
  return "host run " + host_run(holder.owner_id, holder.lease_gen) + "'s owner lease was valid until " +
         std::to_string(lease->second.expires_at_ms) + " > StoreNow " + std::to_string(store_now_ms);
}

std::optional<std::string> HostRowsLedger::judge_descriptor(const AppliedWrite& write, const AppliedPart& part) {
  const auto stored = _descriptors.find(part.key);
  const records::RecordResult<records::MeshNodeDescriptorRecord> decoded =
      records::decode_mesh_node_descriptor_record(part.value);
  if (!decoded.ok()) {
    return "the stored descriptor does not decode";
  }
  const Descriptor next{decoded.value().owner_id, platform::as_i64(decoded.value().lease_generation),
                        platform::as_i64(decoded.value().descriptor_revision)};
  const std::string run = host_run(next.owner_id, next.lease_gen);
  const auto own_lease = _leases.find(std::string(kLeasePrefix) + next.owner_id);
  if (own_lease == _leases.end() || own_lease->second.lease_gen != next.lease_gen) {
    return "host run " + run + " published without its owner lease row in the store (§4: conditioned on it)";
  }
  const std::string revision_key = part.key + "|" + run;
  const auto highest = _revisions.find(revision_key);
  if (highest != _revisions.end() && next.revision <= highest->second) {
    return "host run " + run + " re-stored Revision " + std::to_string(next.revision) + " after Revision " +
           std::to_string(highest->second) + " (§4: a RENEW at a stored Revision is a no-op; new content needs a higher one)";
  }
  if (stored != _descriptors.end() &&
      (stored->second.owner_id != next.owner_id || stored->second.lease_gen != next.lease_gen)) {
    const std::string live = live_holder(stored->second, write.store_now_ms);
    if (!live.empty()) {
      return "host run " + run + " took over the descriptor while " + live + " (§4)";
    }
  }
  _revisions[revision_key] = next.revision;
  _descriptors[part.key] = next;
  return std::nullopt;
}

std::optional<std::string> HostRowsLedger::judge_counter(const AppliedPart& part) {
  std::int64_t& value = _counters[part.key];
  if (part.mutation != "increment") {
    // The protocol only increments counters; a put (a scenario's seeding) or delete sets the value.
    std::int64_t stored = 0;
    const char* end = part.value.data() + part.value.size();
    value = std::from_chars(part.value.data(), end, stored).ptr == end ? stored : 0;
    return std::nullopt;
  }
  if (part.counter != value + part.delta) {
    return "the counter went " + std::to_string(value) + " + " + std::to_string(part.delta) + " -> " +
           std::to_string(part.counter);
  }
  const bool generation = starts_with(part.key, kGenerationCounterPrefix);
  if (generation && (part.delta != 1 || part.counter > platform::as_i64(records::kGenerationMax))) {
    return "a generation counter moved by " + std::to_string(part.delta) + " to " + std::to_string(part.counter) +
           " (§3.2: it only rises, by one, within 1..2^63-2)";
  }
  if (!generation && part.counter < 0) {
    return "a capacity counter went below 0 (" + std::to_string(part.counter) + ")";
  }
  value = part.counter;
  return std::nullopt;
}

}  // namespace spotcheck::properties
