#include "impl/location/descriptor/descriptor_list.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/events/descriptor_events.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/location/scan/scan_range.h"
#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::location {


namespace {

struct LeaseSeen {
  std::optional<records::OwnerLeaseRecord> record;  // nullopt: missing or undecodable
  store::StoreVersion version;
  store::StoreNowMs now_ms = 0;
};

// One publisher's owner lease, read directly by its OwnerId (§3.1).
Result<LeaseSeen> read_lease(store::LocationStore& store, const std::string& owner_id, TimeUs deadline_us) {
  LeaseSeen seen;
  const store::ReadResult read = store.read(records::owner_lease_preimage(owner_id), deadline_us);
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    return Error::of(ErrorKind::kStoreError, std::string("reading an owner lease: ") + store::to_string(error->kind));
  }
  if (const auto* missing = std::get_if<store::Missing>(&read)) {
    seen.now_ms = missing->now_ms;
    return seen;
  }
  const auto& found = std::get<store::Found>(read);
  seen.now_ms = found.now_ms;
  seen.version = found.version;
  records::RecordResult<records::OwnerLeaseRecord> lease = records::decode_owner_lease_record(found.value);
  if (lease.ok()) {
    seen.record = std::move(lease).value();
  }
  return seen;
}

// The descriptor's lease fields from what its publisher's lease read found.
void apply_lease(NodeView& view, const LeaseSeen& seen) {
  view.lease_read_now_ms = seen.now_ms;
  if (!seen.record.has_value()) {
    return;
  }
  view.lease_version = seen.version;
  view.lease_expires_at_ms = seen.record->expires_at_epoch_ms;
  view.lease_valid =
      lease_holds(*seen.record, view.descriptor.owner_id, view.descriptor.lease_generation, seen.now_ms);
}

void emit_list_read(platform::Platform& platform, std::string_view mesh_name, const DescriptorList& list) {
  std::int64_t valid = 0;
  for (const NodeView& node : list.nodes) {
    valid += node.lease_valid ? 1 : 0;
  }
  platform::emit_event(platform.events, kinds::kDescriptorListRead,
                       events::DescriptorListRead{mesh_name, static_cast<std::int64_t>(list.nodes.size()), valid,
                                                  static_cast<std::int64_t>(list.undecodable),
                                                  static_cast<std::int64_t>(list.pages), list.now_ms});
}

}  // namespace

Result<DescriptorList> read_descriptor_list(store::LocationStore& store, platform::Platform& platform,
                                            const LocationConfig& config,
                                            std::string_view mesh_name) {
  const std::function<TimeUs()> deadline = [&] { return platform.clock.now_us() + config.store_request_timeout_us; };
  const store::Key begin = keys::mesh_node_range_begin(mesh_name);
  const store::Key end = keys::mesh_node_range_end(mesh_name);
  SPOTCHECK_ASSERT(begin < end);
  Result<ScannedRange> range = scan_range(store, platform.events, begin, end, deadline,
                                          ScanBounds{kDescriptorListPagesMax, kDescriptorListRestartsMax,
                                                     "descriptor list"});
  if (!range.ok()) {
    return range.error();
  }
  DescriptorList list;
  list.pages = range.value().pages;
  list.now_ms = range.value().now_ms;
  // Each publisher's owner lease, read directly once per OwnerId.
  std::map<std::string, LeaseSeen, std::less<>> leases;
  for (const store::ScanEntry& entry : range.value().entries) {
    records::RecordResult<records::MeshNodeDescriptorRecord> decoded =
        records::decode_mesh_node_descriptor_record(entry.value);
    if (!decoded.ok() || decoded.value().mesh_name != mesh_name) {
      ++list.undecodable;
      continue;
    }
    NodeView view;
    view.descriptor = std::move(decoded).value();
    view.descriptor_version = entry.version;
    SPOTCHECK_ASSERT(entry.key ==
                    records::mesh_node_preimage(view.descriptor.mesh_name, view.descriptor.routing_id_hex));
    auto it = leases.find(view.descriptor.owner_id);
    if (it == leases.end()) {
      Result<LeaseSeen> seen = read_lease(store, view.descriptor.owner_id, deadline());
      if (!seen.ok()) {
        return seen.error();
      }
      it = leases.emplace(view.descriptor.owner_id, std::move(seen).value()).first;
    }
    apply_lease(view, it->second);
    list.nodes.push_back(std::move(view));
  }
  emit_list_read(platform, mesh_name, list);
  return list;
}

}  // namespace spotcheck::location
