// Querying the current location from operational tools (spec §7.4). Read-only: lookups and list
// pages issue store reads and scans, never a write, and cache nothing (§7.4: Missing, Creating
// and store errors are never cached as "the object doesn't exist").
//
//   stored state                         lookup by ID              paged list
//   no record                            empty (nullopt)           no entry
//   Creating (Reserved)                  a Creating entry          a Creating entry
//   Ready (Active), owner lease valid    a Ready entry             a Ready entry
//   Ready, owner unavailable after commit  an Unavailable entry    an Unavailable entry
//     (the owner's lease row gone, of another LeaseGeneration or expired at StoreNow; or the row
//     records §10 DataLost)
//   store query failure                  Error kStoreError         the whole page is an error
//
// A list page holds 1..max_entries (<= 1,000) entries of one object kind (required), optionally
// one stable type and one MeshName, in authority key order, at most 4 MiB encoded; its opaque
// continuation (query_continuation.h, <= 4,096 bytes) resumes after the last key returned, so one
// page cycle never returns an ID twice (a change completed during a cycle may first appear in the
// next one). There is no call that returns the whole set at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/location/errors.h"
#include "impl/location/result.h"
#include "impl/platform/time.h"
#include "impl/records/authority_record.h"
#include "impl/records/enums.h"
#include "impl/records/keys.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::query {

enum class LocationState { kCreating, kReady, kUnavailable };
std::string_view to_string(LocationState state);  // Creating | Ready | Unavailable

struct LocationEntry {
  records::AuthorityKind authority = records::AuthorityKind::kActor;  // Actor or Spot: lookups tell them apart
  std::string id;
  records::ObjectKind object_kind = records::ObjectKind::kActor;
  std::string stable_type;
  std::uint64_t object_generation = 0;
  std::string mesh_name;
  std::string node_rid_hex;
  LocationState state = LocationState::kCreating;
  friend bool operator==(const LocationEntry&, const LocationEntry&) = default;
};

// The bytes one entry counts for against the page bound (its fields plus a fixed overhead).
std::size_t encoded_size(const LocationEntry& entry);

struct ListFilter {
  records::ObjectKind object_kind = records::ObjectKind::kActor;  // required
  std::optional<std::string> stable_type;
  std::optional<std::string> mesh_name;
  friend bool operator==(const ListFilter&, const ListFilter&) = default;
};

struct LocationPage {
  std::vector<LocationEntry> entries;
  std::optional<std::string> continuation;  // absent on the last page of the cycle
};

struct QueryLimits {
  std::uint32_t entries_max = 1'000;           // a page's entries: 1..1,000
  std::size_t page_bytes_max = 4 * 1024 * 1024;  // a page's encoded entries
  std::size_t scan_pages_max = 1'024;          // store pages one list page may read (filters skip rows)
  std::size_t restarts_max = 3;                // ScanExpired start-overs within one list page
};
inline constexpr std::uint32_t kEntriesMax = 1'000;

class LocationQuery {
 public:
  // `deadline` gives each store request's deadline as it is sent.
  LocationQuery(store::LocationStore& store, std::function<platform::TimeUs()> deadline, QueryLimits limits = {});

  // By ActorId or SpotId: nullopt when no record (never a Missing entry); Error kStoreError when
  // the store could not be read (the Unavailable framework error of §7.4).
  Result<std::optional<LocationEntry>> lookup(records::AuthorityKind authority, std::string_view id);

  // One page of the list `filter` names, from the start (no continuation) or resuming where
  // `continuation` left off. kInvalidArgument: an empty type or mesh filter, max_entries outside
  // 1..1,000, or a continuation that is malformed, altered or of another filter. kStoreError: the
  // store failed; no partial page is returned.
  Result<LocationPage> list(const ListFilter& filter, std::uint32_t max_entries,
                            const std::optional<std::string>& continuation = std::nullopt);

 private:
  // A row's state: Reserved -> Creating; Active -> Ready or Unavailable by its owner's lease (read
  // once per owner and LeaseGeneration within one call) and DataLost; Error when that read failed.
  Result<LocationState> state_of(const records::AuthorityRecord& record);
  Result<bool> owner_live(const std::string& owner_id, std::uint64_t lease_generation);

  store::LocationStore& _store;
  std::function<platform::TimeUs()> _deadline;
  QueryLimits _limits;
  std::vector<std::pair<std::pair<std::string, std::uint64_t>, bool>> _owners;  // this call's lease reads
};

}  // namespace spotcheck::location::query
