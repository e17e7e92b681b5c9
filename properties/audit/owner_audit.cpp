#include "properties/audit/owner_audit.h"

#include <map>
#include <set>
#include <variant>

#include "impl/location/keys/counter_keys.h"
#include "impl/records/authority_record.h"

namespace spotcheck::properties {

namespace {

// Bounds: pages of one list (1,000 entries each) and restarts after ScanExpired.
constexpr std::uint32_t kOwnerPagesMax = 10'000;
constexpr std::uint32_t kRestartsMax = 8;

struct Listed {
  std::vector<store::ScanEntry> entries;
  std::string error;
};

Listed list_authority_rows(store::LocationStore& store, store::DeadlineUs deadline_us) {
  Listed out;
  for (std::uint32_t restart = 0; restart < kRestartsMax; ++restart) {
    out.entries.clear();
    store::ScanRequest request{spotcheck::location::keys::authority_range_begin(),
                               spotcheck::location::keys::authority_range_end(), std::nullopt,
                               store::kMaxScanPageEntries};
    bool expired = false;
    for (std::uint32_t page = 0; page < kOwnerPagesMax && !expired; ++page) {
      store::ScanResult result = store.scan(request, deadline_us);
      if (std::holds_alternative<store::ScanExpired>(result)) {
        expired = true;
        break;
      }
      if (const auto* error = std::get_if<store::StoreError>(&result)) {
        out.error = "scan of the authority rows failed: " + std::string(store::to_string(error->kind)) + " " +
                    error->message;
        return out;
      }
      auto& scanned = std::get<store::ScanPage>(result);
      for (store::ScanEntry& entry : scanned.entries) {
        out.entries.push_back(std::move(entry));
      }
      if (!scanned.continuation.has_value()) {
        return out;
      }
      request.continuation = std::move(scanned.continuation);
    }
    if (!expired) {
      out.error = "scan of the authority rows did not end";
      return out;
    }
  }
  out.error = "scan of the authority rows kept expiring";
  return out;
}

// "authority\0actor\0player:1" -> {"actor", "player:1"}.
bool split_authority_key(const std::string& key, std::string& kind, std::string& id) {
  const std::size_t first = key.find('\0');
  if (first == std::string::npos) {
    return false;
  }
  const std::size_t second = key.find('\0', first + 1);
  if (second == std::string::npos) {
    return false;
  }
  kind = key.substr(first + 1, second - first - 1);
  id = key.substr(second + 1);
  return true;
}

std::string row_text(const records::AuthorityRecord& row) {
  return "owner " + row.owner_id + "/" + std::to_string(row.owner_lease_generation) + " ObjectGeneration " +
         std::to_string(row.object_generation) + " AuthorityOwnerGeneration " +
         std::to_string(row.authority_owner_generation) + " " +
         std::string(records::to_string(row.allocation.state));
}

std::string view_text(const ObjectView& view) {
  return "owner " + view.owner + "/" + std::to_string(view.lease_gen) + " ObjectGeneration " +
         std::to_string(view.object_gen) + " AuthorityOwnerGeneration " + std::to_string(view.owner_gen) + " " +
         view.state;
}

bool row_matches(const records::AuthorityRecord& row, const ObjectView& view) {
  return row.owner_id == view.owner && static_cast<std::int64_t>(row.owner_lease_generation) == view.lease_gen &&
         static_cast<std::int64_t>(row.object_generation) == view.object_gen &&
         static_cast<std::int64_t>(row.authority_owner_generation) == view.owner_gen &&
         records::to_string(row.allocation.state) == view.state;
}

}  // namespace

std::optional<std::string> OwnerAuditResult::violation() const {
  if (!complete) {
    return "owner audit could not read the store: " + error;
  }
  if (!problems.empty()) {
    return "owner audit: " + problems.front() +
           (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : "");
  }
  return std::nullopt;
}

OwnerAuditResult audit_owner_rows(store::LocationStore& store, const ActivityLog& log, store::DeadlineUs deadline_us,
                                  bool judge_untouched_rows) {
  OwnerAuditResult result;
  Listed listed = list_authority_rows(store, deadline_us);
  if (!listed.error.empty()) {
    result.error = listed.error;
    return result;
  }
  result.complete = true;
  std::map<std::uint64_t, std::string> generation_holder;  // ObjectGeneration -> object
  std::set<std::string> seen;
  const auto disagree = [&result, &log](const std::string& id, std::string text) {
    (log.uncertain(id) ? result.unresolved : result.problems).push_back(std::move(text));
  };
  for (const store::ScanEntry& entry : listed.entries) {
    ++result.rows;
    std::string kind;
    std::string id;
    if (!split_authority_key(entry.key, kind, id)) {
      result.problems.push_back("an authority row key has no kind/id segments");
      continue;
    }
    const std::string object = kind + "/" + id;
    seen.insert(object);
    records::RecordResult<records::AuthorityRecord> decoded = records::decode_authority_record(entry.value);
    if (!decoded.ok()) {
      result.problems.push_back(object + ": the authority row does not decode");
      continue;
    }
    const records::AuthorityRecord& row = decoded.value();
    ++(row.allocation.state == records::AllocationState::kActive ? result.active_rows : result.reserved_rows);
    if (row.owner_id.empty() || row.owner_lease_generation == 0) {
      result.problems.push_back(object + ": the row names no owner host run");
    }
    const auto [holder, fresh] = generation_holder.emplace(row.object_generation, object);
    if (!fresh) {
      result.problems.push_back(object + " and " + holder->second + " share ObjectGeneration " +
                                std::to_string(row.object_generation));
    }
    const auto view = log.objects().find(object);
    if (view == log.objects().end()) {
      if (judge_untouched_rows) {
        disagree(id, object + ": the store holds a row (" + row_text(row) + ") no reported change created");
      }
      continue;
    }
    if (!view->second.exists) {
      disagree(id, object + ": the store holds a row (" + row_text(row) + ") the trace removed (event #" +
                       std::to_string(view->second.last_event) + ")");
    } else if (!row_matches(row, view->second)) {
      disagree(id, object + ": the store row (" + row_text(row) + ") is not the one the trace last reported (" +
                       view_text(view->second) + ", event #" + std::to_string(view->second.last_event) + ")");
    }
  }
  for (const auto& [object, view] : log.objects()) {
    if (view.exists && !seen.contains(object)) {
      const std::string id = object.substr(object.find('/') + 1);
      disagree(id, object + ": the trace last reported a row (" + view_text(view) + ", event #" +
                       std::to_string(view.last_event) + ") the store does not hold");
    }
  }
  return result;
}

}  // namespace spotcheck::properties
