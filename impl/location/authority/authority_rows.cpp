#include "impl/location/authority/authority_rows.h"

#include <optional>
#include <utility>

#include "impl/check/check.h"
#include "impl/location/keys/counter_keys.h"
#include "impl/records/authority_record.h"

namespace spotcheck::location {

Result<std::vector<AuthoritySnapshot>> list_authority_rows(
    store::LocationStore& store, platform::EventSink& events, const std::function<platform::TimeUs()>& deadline,
    const ScanBounds& bounds, const std::function<bool(const records::AuthorityRecord&)>& keep) {
  Result<ScannedRange> range =
      scan_range(store, events, keys::authority_range_begin(), keys::authority_range_end(), deadline, bounds);
  if (!range.ok()) {
    return range.error();
  }
  std::vector<AuthoritySnapshot> rows;
  for (store::ScanEntry& entry : range.value().entries) {
    records::RecordResult<records::AuthorityRecord> record = records::decode_authority_record(entry.value);
    if (!record.ok() || !keep(record.value())) {
      continue;
    }
    const std::optional<AuthorityKey> key = parse_authority_key(entry.key);
    SPOTCHECK_ASSERT(key.has_value());  // the authority range holds authority rows only
    rows.push_back(AuthoritySnapshot{*key, std::move(record).value(), entry.version, std::move(entry.value)});
  }
  return rows;
}

}  // namespace spotcheck::location
