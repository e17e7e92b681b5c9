#include "properties/checkers/store_truth_hosts.h"

#include <charconv>

#include "impl/platform/event_fields.h"
#include "impl/records/enums.h"
#include "impl/records/limits.h"
#include "impl/records/mesh_node_descriptor_record.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::properties {

namespace {

constexpr std::string_view kLeasePrefix = "owner-lease/";
constexpr std::string_view kDescriptorPrefix = "mesh-node/";
constexpr std::string_view kGenerationCounterPrefix = "counter/";
constexpr std::string_view kLeaseGenerationCounter = "counter/lease-generation";

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string host_run(std::string_view owner_id, std::int64_t lease_gen) {
  return std::string(owner_id) + "/" + std::to_string(lease_gen);
}

// The limits a descriptor states (§3.3, §4): its actor and Spot limits, and each Spot kind and
// stable type's limit from its object capabilities (the descriptor's capacity.spotTypes is the
// operators' copy of usage; the protocol bounds by the capability).
model::NodeLimits limits_of(const records::MeshNodeDescriptorRecord& record) {
  model::NodeLimits limits;
  limits.mesh = record.mesh_name;
  limits.rid = record.routing_id_hex;
  limits.actors = record.capacity.actors.limit;
  limits.spots = record.capacity.spots.limit;
  for (const records::ObjectCapability& capability : record.object_capabilities) {
    if (records::is_spot(capability.object_kind)) {
      limits.spot_types.push_back(
          {std::string(records::to_string(capability.object_kind)), capability.stable_type, capability.limit});
    }
  }
  return limits;
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
        forget_limits(part.key);
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

std::optional<model::LeaseRow> HostRowsLedger::lease_of(std::string_view owner_id) const {
  const auto live = _leases.find(std::string(kLeasePrefix) + std::string(owner_id));
  return live == _leases.end() ? std::nullopt : std::optional<model::LeaseRow>(live->second);
}

std::optional<std::string> HostRowsLedger::judge_lease(const AppliedWrite& write, const AppliedPart& part) {
  const records::RecordResult<records::OwnerLeaseRecord> decoded = records::decode_owner_lease_record(part.value);
  if (!decoded.ok()) {
    return "the stored owner lease row does not decode";
  }
  const records::OwnerLeaseRecord& record = decoded.value();
  const model::LeaseRow next{record.owner_id, platform::as_i64(record.lease_generation), record.expires_at_epoch_ms,
                             record.updated_at_epoch_ms};
  const auto live = _leases.find(part.key);
  const std::optional<model::LeaseRow> current =
      live == _leases.end() ? std::nullopt : std::optional<model::LeaseRow>(live->second);
  if (auto problem = model::lease_put_problem(std::string_view(part.key).substr(kLeasePrefix.size()), current,
                                              _lease_keys_ever.contains(part.key),
                                              write.counter_after(kLeaseGenerationCounter), next)) {
    return problem;
  }
  if (current.has_value()) {
    _renews[next.owner_id + "|" + std::to_string(next.expires_at_ms)] =
        RenewFact{write.store_now_ms, current->expires_at_ms, part.event};
  }
  _lease_keys_ever.insert(part.key);
  _leases[part.key] = next;
  return std::nullopt;
}

const HostRowsLedger::RenewFact* HostRowsLedger::renew_that_wrote(std::string_view owner_id,
                                                                  std::int64_t expires_ms) const {
  const auto found = _renews.find(std::string(owner_id) + "|" + std::to_string(expires_ms));
  return found == _renews.end() ? nullptr : &found->second;
}

std::optional<std::string> HostRowsLedger::judge_descriptor(const AppliedWrite& write, const AppliedPart& part) {
  const records::RecordResult<records::MeshNodeDescriptorRecord> decoded =
      records::decode_mesh_node_descriptor_record(part.value);
  if (!decoded.ok()) {
    return "the stored descriptor does not decode";
  }
  const records::MeshNodeDescriptorRecord& record = decoded.value();
  const model::DescriptorRow next{record.owner_id, platform::as_i64(record.lease_generation),
                                  platform::as_i64(record.descriptor_revision)};
  const std::string revision_key = part.key + "|" + host_run(next.owner_id, next.lease_gen);
  const auto highest = _revisions.find(revision_key);
  const auto stored = _descriptors.find(part.key);
  const std::optional<model::DescriptorRow> replaced =
      stored == _descriptors.end() ? std::nullopt : std::optional<model::DescriptorRow>(stored->second);
  if (auto problem = model::descriptor_put_problem(
          next, lease_of(next.owner_id), replaced,
          replaced.has_value() ? lease_of(replaced->owner_id) : std::nullopt,
          highest == _revisions.end() ? std::nullopt : std::optional<std::int64_t>(highest->second), write.store_now_ms)) {
    return problem;
  }
  _revisions[revision_key] = next.revision;
  _descriptors[part.key] = next;
  note_limits(part.key, limits_of(record), next);
  return std::nullopt;
}

void HostRowsLedger::note_limits(std::string_view descriptor_key, const model::NodeLimits& limits,
                                 const model::DescriptorRow& row) {
  forget_limits(descriptor_key);
  std::vector<std::string>& bounded = _bounded_by_descriptor[std::string(descriptor_key)];
  const std::string descriptor = "Revision " + std::to_string(row.revision) + " of host run " +
                                 host_run(row.owner_id, row.lease_gen);
  for (const model::CounterLimit& bound : model::counter_limits(limits)) {
    _bounds[bound.key] = CounterBound{bound.limit, descriptor};
    bounded.push_back(bound.key);
  }
}

void HostRowsLedger::forget_limits(std::string_view descriptor_key) {
  const auto bounded = _bounded_by_descriptor.find(descriptor_key);
  if (bounded == _bounded_by_descriptor.end()) {
    return;
  }
  for (const std::string& counter : bounded->second) {
    _bounds.erase(counter);
  }
  _bounded_by_descriptor.erase(bounded);
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
  const model::CounterKind kind = starts_with(part.key, kGenerationCounterPrefix) ? model::CounterKind::kGeneration
                                                                                  : model::CounterKind::kCapacity;
  if (auto problem = model::counter_increment_problem(kind, value, part.delta, part.counter)) {
    return problem;
  }
  value = part.counter;
  if (kind == model::CounterKind::kCapacity) {
    const auto bound = _bounds.find(part.key);
    if (bound != _bounds.end()) {
      if (auto problem = model::counter_limit_problem(part.delta, part.counter, bound->second.limit)) {
        return *problem + " (" + bound->second.descriptor + ")";
      }
    }
  }
  return std::nullopt;
}

static_assert(model::kIssuedGenerationMax == static_cast<std::int64_t>(records::kGenerationMax),
              "the model's generation bound is the records' (§3.2)");

}  // namespace spotcheck::properties
