#include "impl/location/descriptor/descriptor_list.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "impl/location/check.h"
#include "impl/location/events/event_names.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::location {

using platform::Field;

namespace {

struct LeaseSeen {
  std::optional<records::OwnerLeaseRecord> record;  // nullopt: missing or undecodable
  store::StoreVersion version;
  store::StoreNowMs now_ms = 0;
};

}  // namespace

Result<DescriptorList> read_descriptor_list(store::LocationStore& store, platform::Platform& platform,
                                            const LocationConfig& config,
                                            std::string_view mesh_name) {
  auto deadline = [&] { return platform.clock.now_us() + config.store_request_timeout_us; };
  const store::Key begin = keys::mesh_node_range_begin(mesh_name);
  const store::Key end = keys::mesh_node_range_end(mesh_name);
  LOCATION_ASSERT(begin < end);

  std::vector<store::ScanEntry> entries;
  DescriptorList list;
  bool complete = false;
  for (std::size_t restart = 0; restart <= kDescriptorListRestartsMax && !complete; ++restart) {
    entries.clear();
    list.pages = 0;
    store::ScanRequest request{begin, end, std::nullopt, store::kMaxScanPageEntries};
    bool expired = false;
    for (std::size_t page = 0; page < kDescriptorListPagesMax; ++page) {
      const store::ScanResult result = store.scan(request, deadline());
      if (const auto* error = std::get_if<store::StoreError>(&result)) {
        // A failed page ends the whole list: no partial list is used (§7.4).
        return Error::of(ErrorKind::kStoreError,
                         std::string("descriptor list page: ") + store::to_string(error->kind));
      }
      if (std::holds_alternative<store::ScanExpired>(result)) {
        expired = true;
        break;
      }
      const auto& scanned = std::get<store::ScanPage>(result);
      LOCATION_ASSERT(scanned.entries.size() <= request.max_entries);
      if (list.pages == 0) {
        list.now_ms = scanned.now_ms;
      }
      ++list.pages;
      for (const store::ScanEntry& entry : scanned.entries) {
        LOCATION_ASSERT(entry.key >= begin && entry.key < end);
        entries.push_back(entry);
      }
      if (!scanned.continuation.has_value()) {
        complete = true;
        break;
      }
      LOCATION_ASSERT(scanned.continuation->size() <= store::kMaxContinuationBytes);
      request.continuation = scanned.continuation;
    }
    if (!complete && !expired) {
      return Error::of(ErrorKind::kStoreError, "descriptor list longer than the page bound");
    }
  }
  if (!complete) {
    return Error::of(ErrorKind::kStoreError, "descriptor list scan kept expiring");
  }

  // Each publisher's owner lease, read directly once per OwnerId.
  std::map<std::string, LeaseSeen, std::less<>> leases;
  for (const store::ScanEntry& entry : entries) {
    records::RecordResult<records::MeshNodeDescriptorRecord> decoded =
        records::decode_mesh_node_descriptor_record(entry.value);
    if (!decoded.ok() || decoded.value().mesh_name != mesh_name) {
      ++list.undecodable;
      continue;
    }
    NodeView view;
    view.descriptor = std::move(decoded).value();
    view.descriptor_version = entry.version;
    LOCATION_ASSERT(entry.key ==
                    records::mesh_node_preimage(view.descriptor.mesh_name, view.descriptor.routing_id_hex));
    auto it = leases.find(view.descriptor.owner_id);
    if (it == leases.end()) {
      LeaseSeen seen;
      const store::ReadResult read =
          store.read(records::owner_lease_preimage(view.descriptor.owner_id), deadline());
      if (const auto* error = std::get_if<store::StoreError>(&read)) {
        return Error::of(ErrorKind::kStoreError,
                         std::string("reading an owner lease: ") + store::to_string(error->kind));
      }
      if (const auto* missing = std::get_if<store::Missing>(&read)) {
        seen.now_ms = missing->now_ms;
      } else {
        const auto& found = std::get<store::Found>(read);
        seen.now_ms = found.now_ms;
        seen.version = found.version;
        records::RecordResult<records::OwnerLeaseRecord> lease =
            records::decode_owner_lease_record(found.value);
        if (lease.ok()) {
          seen.record = std::move(lease).value();
        }
      }
      it = leases.emplace(view.descriptor.owner_id, std::move(seen)).first;
    }
    const LeaseSeen& seen = it->second;
    view.lease_read_now_ms = seen.now_ms;
    if (seen.record.has_value()) {
      view.lease_version = seen.version;
      view.lease_expires_at_ms = seen.record->expires_at_epoch_ms;
      view.lease_valid = seen.record->owner_id == view.descriptor.owner_id &&
                         seen.record->lease_generation == view.descriptor.lease_generation &&
                         seen.record->expires_at_epoch_ms > seen.now_ms;
    }
    list.nodes.push_back(std::move(view));
  }
  std::int64_t valid = 0;
  for (const NodeView& node : list.nodes) {
    valid += node.lease_valid ? 1 : 0;
  }
  platform.events.emit(events::kDescriptorListRead,
                       {Field::str("mesh", mesh_name),
                        Field::num("count", static_cast<std::int64_t>(list.nodes.size())),
                        Field::num("valid", valid),
                        Field::num("undecodable", static_cast<std::int64_t>(list.undecodable)),
                        Field::num("pages", static_cast<std::int64_t>(list.pages)),
                        Field::num("store_now_ms", list.now_ms)});
  return list;
}

}  // namespace spotcheck::location
