#include "properties/audit/query_audit.h"

#include <map>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "impl/location/authority/authority_snapshot.h"
#include "impl/location/instance/instance_request.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/location/query/location_query.h"
#include "impl/location/query/query_continuation.h"
#include "impl/records/authority_record.h"
#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::properties {

namespace {

namespace lq = location::query;

constexpr std::size_t kScanPagesMax = 1 << 16;
constexpr std::uint32_t kAuditPageEntries = 3;  // small pages: the continuations are walked
constexpr std::size_t kListPagesMax = 1 << 20;
constexpr std::string_view kAbsentId = "spotcheck-query-audit-absent";

// Every (key, value) in [begin, end) from one scan; nullopt (and `error`) when it fails.
std::optional<std::vector<store::ScanEntry>> scan_all(store::LocationStore& store, const store::Key& begin,
                                                      const store::Key& end, store::DeadlineUs deadline_us,
                                                      std::string& error, store::StoreNowMs& now_ms) {
  std::vector<store::ScanEntry> out;
  store::ScanRequest request{begin, end, std::nullopt, store::kMaxScanPageEntries};
  for (std::size_t page = 0; page < kScanPagesMax; ++page) {
    const store::ScanResult result = store.scan(request, deadline_us);
    const auto* scanned = std::get_if<store::ScanPage>(&result);
    if (scanned == nullptr) {
      error = "the store could not be scanned";
      return std::nullopt;
    }
    now_ms = scanned->now_ms;
    out.insert(out.end(), scanned->entries.begin(), scanned->entries.end());
    if (!scanned->continuation.has_value()) {
      return out;
    }
    request.continuation = scanned->continuation;
  }
  error = "the scan did not end";
  return std::nullopt;
}

std::string text(const lq::LocationEntry& entry) {
  return std::string(records::to_string(entry.authority)) + " " + entry.id + " (" +
         std::string(records::to_string(entry.object_kind)) + " " + entry.stable_type + ", gen " +
         std::to_string(entry.object_generation) + ", " + entry.mesh_name + "/" + entry.node_rid_hex + ", " +
         std::string(lq::to_string(entry.state)) + ")";
}

// What the store's rows say each entry is.
std::map<std::string, lq::LocationEntry> expected_entries(const std::vector<store::ScanEntry>& rows,
                                                          const std::vector<store::ScanEntry>& leases,
                                                          store::StoreNowMs now_ms) {
  std::map<std::pair<std::string, std::uint64_t>, bool> live;
  for (const store::ScanEntry& row : leases) {
    const auto lease = records::decode_owner_lease_record(row.value);
    if (lease.ok()) {
      live[{lease.value().owner_id, lease.value().lease_generation}] = lease.value().expires_at_epoch_ms > now_ms;
    }
  }
  std::map<std::string, lq::LocationEntry> out;
  for (const store::ScanEntry& row : rows) {
    const std::optional<location::AuthorityKey> key = location::parse_authority_key(row.key);
    const auto record = records::decode_authority_record(row.value);
    if (!key.has_value() || !record.ok()) {
      continue;
    }
    const records::AuthorityRecord& r = record.value();
    lq::LocationState state = lq::LocationState::kCreating;
    if (r.allocation.state == records::AllocationState::kActive) {
      const auto owner = live.find({r.owner_id, r.owner_lease_generation});
      const bool ready = owner != live.end() && owner->second && !location::instance::is_data_lost(r.payload);
      state = ready ? lq::LocationState::kReady : lq::LocationState::kUnavailable;
    }
    out.emplace(row.key, lq::LocationEntry{key->kind, key->id, r.allocation.object_kind, r.allocation.stable_type,
                                           r.object_generation, r.allocation.descriptor.mesh_name,
                                           r.allocation.descriptor.routing_id_hex, state});
  }
  return out;
}

std::optional<std::string> check_lookups(lq::LocationQuery& query, const std::map<std::string, lq::LocationEntry>& expected) {
  for (const auto& [key, entry] : expected) {
    const auto found = query.lookup(entry.authority, entry.id);
    if (!found.ok()) {
      return "the lookup of " + text(entry) + " failed: " + found.error().message;
    }
    if (!found.value().has_value()) {
      return "the lookup of " + text(entry) + " answered empty although the store holds its row";
    }
    if (!(*found.value() == entry)) {
      return "the lookup answered " + text(*found.value()) + " but the store's rows say " + text(entry);
    }
  }
  const auto absent = query.lookup(records::AuthorityKind::kActor, kAbsentId);
  if (!absent.ok() || absent.value().has_value()) {
    return "the lookup of an ID with no row did not answer empty";
  }
  return std::nullopt;
}

std::optional<std::string> check_list(lq::LocationQuery& query, records::ObjectKind kind,
                                      const std::map<std::string, lq::LocationEntry>& expected, std::size_t& pages) {
  std::map<std::string, lq::LocationEntry> want;
  for (const auto& [key, entry] : expected) {
    if (entry.object_kind == kind) {
      want.emplace(std::string(records::to_string(entry.authority)) + "/" + entry.id, entry);
    }
  }
  std::set<std::string> seen;
  std::optional<std::string> token;
  const std::string name(records::to_string(kind));
  for (std::size_t page = 0; page < kListPagesMax; ++page) {
    const auto listed = query.list(lq::ListFilter{kind, {}, {}}, kAuditPageEntries, token);
    ++pages;
    if (!listed.ok()) {
      return "the " + name + " list failed: " + listed.error().message;
    }
    if (listed.value().entries.size() > kAuditPageEntries) {
      return "a " + name + " list page held " + std::to_string(listed.value().entries.size()) + " entries, asked for " +
             std::to_string(kAuditPageEntries);
    }
    for (const lq::LocationEntry& entry : listed.value().entries) {
      const std::string id = std::string(records::to_string(entry.authority)) + "/" + entry.id;
      if (!seen.insert(id).second) {
        return "the " + name + " list returned " + text(entry) + " twice in one cycle";
      }
      const auto it = want.find(id);
      if (it == want.end()) {
        return "the " + name + " list returned " + text(entry) + ", which the store holds no such row for";
      }
      if (!(it->second == entry)) {
        return "the " + name + " list returned " + text(entry) + " but the store's rows say " + text(it->second);
      }
    }
    token = listed.value().continuation;
    if (!token.has_value()) {
      break;
    }
    if (token->size() > lq::kContinuationBytesMax) {
      return "a " + name + " list continuation of " + std::to_string(token->size()) + " bytes";
    }
  }
  for (const auto& [id, entry] : want) {
    if (!seen.contains(id)) {
      return "the " + name + " list never returned " + text(entry);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> QueryAuditResult::violation() const {
  if (!complete) {
    return "the operational query audit could not read the store: " + error;
  }
  return problem;
}

QueryAuditResult audit_location_queries(store::LocationStore& store, store::DeadlineUs deadline_us) {
  QueryAuditResult result;
  store::StoreNowMs now_ms = 0;
  const auto rows = scan_all(store, location::keys::authority_range_begin(), location::keys::authority_range_end(),
                             deadline_us, result.error, now_ms);
  std::string lease_begin = records::owner_lease_preimage("");
  std::string lease_end = lease_begin;
  lease_end.back() = '\1';
  const auto leases = rows.has_value() ? scan_all(store, lease_begin, lease_end, deadline_us, result.error, now_ms)
                                       : std::nullopt;
  if (!rows.has_value() || !leases.has_value()) {
    return result;
  }
  result.complete = true;
  result.rows = rows->size();
  const std::map<std::string, lq::LocationEntry> expected = expected_entries(*rows, *leases, now_ms);
  lq::LocationQuery query(store, [deadline_us] { return deadline_us; });
  result.problem = check_lookups(query, expected);
  for (const records::ObjectKind kind :
       {records::ObjectKind::kActor, records::ObjectKind::kUserSpot, records::ObjectKind::kInstanceSpot}) {
    if (!result.problem.has_value()) {
      result.problem = check_list(query, kind, expected, result.pages);
    }
  }
  return result;
}

}  // namespace spotcheck::properties
