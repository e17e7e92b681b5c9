#include "impl/location/query/location_query.h"

#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/authority/authority_snapshot.h"
#include "impl/location/instance/instance_request.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/query/query_continuation.h"
#include "impl/records/authority_record.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::location::query {

namespace {

constexpr std::size_t kEntryOverheadBytes = 64;  // kinds, generation, state, separators

Error store_error(std::string what) { return Error::of(ErrorKind::kStoreError, std::move(what)); }
Error invalid(std::string what) { return Error::of(ErrorKind::kInvalidArgument, std::move(what)); }

// The authority key range one object kind lives in: every Spot kind under "spot".
std::pair<std::string, std::string> range_of(records::ObjectKind kind) {
  const records::AuthorityKind authority =
      records::is_spot(kind) ? records::AuthorityKind::kSpot : records::AuthorityKind::kActor;
  std::string begin = records::authority_preimage(authority, "");  // "authority\0{kind}\0"
  std::string end = begin;
  end.back() = '\1';
  return {std::move(begin), std::move(end)};
}

bool valid_filter_text(const std::optional<std::string>& text) { return !text.has_value() || !text->empty(); }

// The entry of a decoded row, its state Creating until LocationQuery::state_of judges an Active row.
LocationEntry entry_fields(records::AuthorityKind authority, std::string_view id, const records::AuthorityRecord& record) {
  return LocationEntry{authority,
                       std::string(id),
                       record.allocation.object_kind,
                       record.allocation.stable_type,
                       record.object_generation,
                       record.allocation.descriptor.mesh_name,
                       record.allocation.descriptor.routing_id_hex,
                       LocationState::kCreating};
}

bool matches(const LocationEntry& entry, const ListFilter& filter) {
  return entry.object_kind == filter.object_kind &&
         (!filter.stable_type.has_value() || entry.stable_type == *filter.stable_type) &&
         (!filter.mesh_name.has_value() || entry.mesh_name == *filter.mesh_name);
}

}  // namespace

std::string_view to_string(LocationState state) {
  switch (state) {
    case LocationState::kCreating:
      return "Creating";
    case LocationState::kReady:
      return "Ready";
    case LocationState::kUnavailable:
      return "Unavailable";
  }
  return "Unavailable";
}

std::size_t encoded_size(const LocationEntry& entry) {
  return kEntryOverheadBytes + entry.id.size() + entry.stable_type.size() + entry.mesh_name.size() +
         entry.node_rid_hex.size();
}

LocationQuery::LocationQuery(store::LocationStore& store, std::function<platform::TimeUs()> deadline,
                             QueryLimits limits)
    : _store(store), _deadline(std::move(deadline)), _limits(limits) {
  SPOTCHECK_ASSERT(static_cast<bool>(_deadline));
  SPOTCHECK_ASSERT(_limits.entries_max >= 1 && _limits.entries_max <= kEntriesMax);
  SPOTCHECK_ASSERT(_limits.page_bytes_max > 0 && _limits.scan_pages_max > 0);
}

Result<bool> LocationQuery::owner_live(const std::string& owner_id, std::uint64_t lease_generation) {
  const std::pair<std::string, std::uint64_t> owner{owner_id, lease_generation};
  for (const auto& [known, live] : _owners) {
    if (known == owner) {
      return live;
    }
  }
  const store::ReadResult read = _store.read(records::owner_lease_preimage(owner_id), _deadline());
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    return store_error("the owner lease of " + owner_id + " could not be read: " + error->message);
  }
  bool live = false;
  if (const auto* found = std::get_if<store::Found>(&read)) {
    const records::RecordResult<records::OwnerLeaseRecord> lease = records::decode_owner_lease_record(found->value);
    live = lease.ok() && lease_holds(lease.value(), owner_id, lease_generation, found->now_ms);
  }
  _owners.emplace_back(owner, live);
  return live;
}

Result<LocationState> LocationQuery::state_of(const records::AuthorityRecord& record) {
  if (record.allocation.state == records::AllocationState::kReserved) {
    return LocationState::kCreating;
  }
  const Result<bool> live = owner_live(record.owner_id, record.owner_lease_generation);
  if (!live.ok()) {
    return live.error();
  }
  const bool data_lost = instance::is_data_lost(record.payload);
  return live.value() && !data_lost ? LocationState::kReady : LocationState::kUnavailable;
}

Result<std::optional<LocationEntry>> LocationQuery::lookup(records::AuthorityKind authority, std::string_view id) {
  _owners.clear();
  const store::ReadResult read = _store.read(records::authority_preimage(authority, id), _deadline());
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    return store_error("the location of " + std::string(id) + " could not be read: " + error->message);
  }
  const auto* found = std::get_if<store::Found>(&read);
  if (found == nullptr) {
    return std::optional<LocationEntry>{};  // no record: empty, never a Missing entry
  }
  const records::RecordResult<records::AuthorityRecord> record = records::decode_authority_record(found->value);
  if (!record.ok()) {
    return Error::of(ErrorKind::kRecordInvalid, "the record of " + std::string(id) + " does not decode");
  }
  LocationEntry entry = entry_fields(authority, id, record.value());
  const Result<LocationState> state = state_of(record.value());
  if (!state.ok()) {
    return state.error();
  }
  entry.state = state.value();
  return std::optional<LocationEntry>{std::move(entry)};
}

Result<LocationPage> LocationQuery::list(const ListFilter& filter, std::uint32_t max_entries,
                                         const std::optional<std::string>& continuation) {
  _owners.clear();
  if (max_entries < 1 || max_entries > std::min(_limits.entries_max, kEntriesMax)) {
    return invalid("a page holds 1.." + std::to_string(std::min(_limits.entries_max, kEntriesMax)) + " entries");
  }
  if (!valid_filter_text(filter.stable_type) || !valid_filter_text(filter.mesh_name)) {
    return invalid("an empty stable type or MeshName filter");
  }
  auto [begin, end] = range_of(filter.object_kind);
  std::string resume = begin;  // the first key this page may return
  if (continuation.has_value()) {
    const std::optional<DecodedContinuation> decoded = decode_continuation(*continuation);
    if (!decoded.has_value()) {
      return invalid("the continuation is not one this list wrote (malformed or altered)");
    }
    if (!(decoded->filter == filter)) {
      return invalid("the continuation belongs to another list (object kind, stable type or MeshName differ)");
    }
    if (!(decoded->after_key >= begin && decoded->after_key < end)) {
      return invalid("the continuation's position is outside the list's range");
    }
    resume = decoded->after_key + std::string(1, '\0');  // the smallest key after it
  }
  LocationPage page;
  std::size_t page_bytes = 0;
  std::size_t restarts = 0;
  std::string scan_start = resume;  // a continued store scan keeps the start it began with
  std::string last_scanned;         // the last key this page read, taken or not
  std::optional<store::Bytes> store_continuation;
  for (std::size_t scanned = 0; scanned < _limits.scan_pages_max; ++scanned) {
    store::ScanRequest request{scan_start, end, store_continuation, store::kMaxScanPageEntries};
    const store::ScanResult result = _store.scan(request, _deadline());
    if (const auto* error = std::get_if<store::StoreError>(&result)) {
      return store_error("the list could not be read: " + error->message);  // no partial page
    }
    if (std::holds_alternative<store::ScanExpired>(result)) {
      if (++restarts > _limits.restarts_max) {
        return store_error("the store kept forgetting the scan (ScanExpired)");
      }
      // Start over after the last key read: nothing taken is read again, so no ID twice.
      scan_start = last_scanned.empty() ? resume : last_scanned + std::string(1, '\0');
      store_continuation.reset();
      continue;
    }
    const store::ScanPage& scan = std::get<store::ScanPage>(result);
    for (const store::ScanEntry& row : scan.entries) {
      const std::optional<AuthorityKey> key = parse_authority_key(row.key);
      if (!key.has_value()) {
        last_scanned = row.key;
        continue;
      }
      const records::RecordResult<records::AuthorityRecord> record = records::decode_authority_record(row.value);
      if (!record.ok()) {
        last_scanned = row.key;  // not a row this list can show
        continue;
      }
      LocationEntry entry = entry_fields(key->kind, key->id, record.value());
      if (!matches(entry, filter)) {
        last_scanned = row.key;  // filtered out: its owner's lease is never read
        continue;
      }
      // The first entry always fits (the field limits keep one entry far inside 4 MiB).
      if (!page.entries.empty() &&
          (page.entries.size() == max_entries || page_bytes + encoded_size(entry) > _limits.page_bytes_max)) {
        page.continuation = encode_continuation(filter, last_scanned);  // this entry begins the next page
        return page;
      }
      const Result<LocationState> state = state_of(record.value());
      if (!state.ok()) {
        return state.error();
      }
      entry.state = state.value();
      last_scanned = row.key;
      page_bytes += encoded_size(entry);
      page.entries.push_back(std::move(entry));
    }
    if (!scan.continuation.has_value()) {
      return page;  // the end of the range: the last page of the cycle
    }
    store_continuation = scan.continuation;
  }
  // The filters skipped more rows than one page may read: what there is, and where to go on.
  SPOTCHECK_ASSERT(!last_scanned.empty());
  page.continuation = encode_continuation(filter, last_scanned);
  return page;
}

}  // namespace spotcheck::location::query
