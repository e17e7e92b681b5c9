#include "properties/audit/capacity_audit.h"

#include <charconv>
#include <set>
#include <variant>

#include "impl/location/keys/counter_keys.h"
#include "impl/records/authority_record.h"

namespace spotcheck::properties {

namespace {

// Bound on the pages of one list (1,000 entries each).
constexpr std::uint32_t kCapacityPagesMax = 100'000;

std::string range_end(std::string_view prefix_without_separator) {
  std::string end(prefix_without_separator);
  end.push_back('\x01');
  return end;
}

std::string range_begin(std::string_view prefix_without_separator) {
  std::string begin(prefix_without_separator);
  begin.push_back('\0');
  return begin;
}

// One complete same-point-in-time list of [begin, end), or an error text.
std::variant<std::vector<store::ScanEntry>, std::string> list_range(store::LocationStore& store,
                                                                    const std::string& begin, const std::string& end,
                                                                    store::DeadlineUs deadline_us,
                                                                    std::uint32_t restarts_max) {
  for (std::uint32_t restart = 0; restart <= restarts_max; ++restart) {
    std::vector<store::ScanEntry> entries;
    store::ScanRequest request{begin, end, std::nullopt, store::kMaxScanPageEntries};
    bool expired = false;
    for (std::uint32_t page = 0; page < kCapacityPagesMax; ++page) {
      store::ScanResult result = store.scan(request, deadline_us);
      if (std::holds_alternative<store::ScanExpired>(result)) {
        expired = true;
        break;
      }
      if (const auto* error = std::get_if<store::StoreError>(&result)) {
        return "scan failed: " + std::string(store::to_string(error->kind)) + " " + error->message;
      }
      auto& scanned = std::get<store::ScanPage>(result);
      for (store::ScanEntry& entry : scanned.entries) {
        entries.push_back(std::move(entry));
      }
      if (!scanned.continuation.has_value()) {
        return entries;
      }
      request.continuation = std::move(scanned.continuation);
    }
    if (!expired) {
      return "scan did not end within " + std::to_string(kCapacityPagesMax) + " pages";
    }
  }
  return "scan kept expiring (" + std::to_string(restarts_max + 1) + " attempts)";
}

std::optional<std::int64_t> parse_decimal(const std::string& bytes) {
  std::int64_t value = 0;
  const char* first = bytes.data();
  const char* last = bytes.data() + bytes.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last || bytes.empty()) {
    return std::nullopt;
  }
  return value;
}

void add_allocation(const records::AuthorityRecord& row, std::map<std::string, std::int64_t>& allocated) {
  const records::Allocation& allocation = row.allocation;
  const std::string& mesh = allocation.descriptor.mesh_name;
  const std::string& rid = allocation.descriptor.routing_id_hex;
  const records::AllocationCapacity& capacity = allocation.capacity;
  if (capacity.actors > 0) {
    allocated[location::keys::capacity_actors(mesh, rid)] += capacity.actors;
  }
  if (capacity.spots > 0) {
    allocated[location::keys::capacity_spots(mesh, rid)] += capacity.spots;
  }
  if (capacity.spot_type.has_value() && capacity.spot_type->count > 0) {
    allocated[location::keys::capacity_spot_type(mesh, rid, capacity.spot_type->object_kind,
                                                 capacity.spot_type->stable_type)] += capacity.spot_type->count;
  }
}

std::string printable(const std::string& key) {
  std::string out;
  for (const char c : key) {
    out += c == '\0' ? '/' : c;
  }
  return out;
}

}  // namespace

std::string describe_counter_key(const std::string& counter_key) {
  return printable(counter_key);
}

std::optional<std::string> CapacityAuditResult::violation() const {
  if (!complete) {
    return "capacity audit could not read the store: " + error;
  }
  if (!bad_rows.empty()) {
    return "capacity audit: authority row " + printable(bad_rows.front()) + " does not decode (" +
           std::to_string(bad_rows.size()) + " such rows)";
  }
  if (!mismatches.empty()) {
    const CapacityMismatch& first = mismatches.front();
    return "capacity audit: counter " + printable(first.counter_key) + " holds " + std::to_string(first.stored) +
           " but the " + std::to_string(rows) + " authority rows place " + std::to_string(first.allocated) +
           " slot(s) there (" + std::to_string(mismatches.size()) + " counter(s) differ; spec §3.3)";
  }
  return std::nullopt;
}

CapacityAuditResult audit_capacity_counters(store::LocationStore& store, store::DeadlineUs deadline_us,
                                            std::uint32_t restarts_max) {
  CapacityAuditResult result;
  auto rows = list_range(store, location::keys::authority_range_begin(), location::keys::authority_range_end(),
                         deadline_us, restarts_max);
  if (auto* error = std::get_if<std::string>(&rows)) {
    result.error = "authority rows: " + *error;
    return result;
  }
  auto counters = list_range(store, range_begin("capacity"), range_end("capacity"), deadline_us, restarts_max);
  if (auto* error = std::get_if<std::string>(&counters)) {
    result.error = "capacity counters: " + *error;
    return result;
  }
  for (const store::ScanEntry& entry : std::get<std::vector<store::ScanEntry>>(rows)) {
    ++result.rows;
    records::RecordResult<records::AuthorityRecord> row = records::decode_authority_record(entry.value);
    if (!row.ok()) {
      result.bad_rows.push_back(entry.key);
      continue;
    }
    add_allocation(row.value(), result.allocated);
  }
  for (const store::ScanEntry& entry : std::get<std::vector<store::ScanEntry>>(counters)) {
    const std::optional<std::int64_t> value = parse_decimal(entry.value);
    if (!value.has_value()) {
      result.error = "capacity counter " + printable(entry.key) + " is not a decimal integer";
      return result;
    }
    result.stored[entry.key] = *value;
  }
  result.complete = true;
  std::set<std::string> keys;
  for (const auto& [key, value] : result.stored) {
    keys.insert(key);
  }
  for (const auto& [key, value] : result.allocated) {
    keys.insert(key);
  }
  for (const std::string& key : keys) {
    const auto stored = result.stored.find(key);
    const auto allocated = result.allocated.find(key);
    const std::int64_t stored_value = stored == result.stored.end() ? 0 : stored->second;
    const std::int64_t allocated_value = allocated == result.allocated.end() ? 0 : allocated->second;
    if (stored_value != allocated_value) {
      result.mismatches.push_back(CapacityMismatch{key, stored_value, allocated_value});
    }
  }
  return result;
}

}  // namespace spotcheck::properties
