#include "impl/location/creation/result_store.h"

#include <variant>

#include "impl/location/events/creation_events.h"
#include "impl/platform/event_fields.h"
#include "impl/platform/event_kinds.h"

namespace spotcheck::location::creation {


Result<std::optional<FinalResultRecord>> read_final_result(store::LocationStore& store,
                                                           platform::Platform& platform,
                                                           const OperationKey& key,
                                                           platform::TimeUs deadline_us) {
  const store::Key result_key = key.result_key();
  const store::ReadResult read = store.read(result_key, deadline_us);
  if (std::holds_alternative<store::Missing>(read)) {
    return std::optional<FinalResultRecord>{};
  }
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    return Error::of(ErrorKind::kStoreError, std::string("reading a final result: ") + store::to_string(error->kind));
  }
  const auto& found = std::get<store::Found>(read);
  std::optional<FinalResultRecord> record = decode_final_result(found.value);
  if (!record.has_value() || !(record->operation == key)) {
    return Error::of(ErrorKind::kRecordInvalid, "the stored final result does not decode for this operation");
  }
  if (found.now_ms <= record->retain_until_ms) {
    return record;
  }
  // Retention ended: the result is gone. Remove it unless it changed since this read.
  store::WriteRequest remove;
  remove.conditions.push_back(store::ExpectVersion{result_key, found.version});
  remove.mutations.push_back(store::Delete{result_key});
  const store::WriteResult written = store.write(remove, deadline_us);
  platform::emit_event(
      platform.events, kinds::kCreationResultExpired,
      events::CreationResultExpired{key.op_id.hex(), record->retain_until_ms, found.now_ms,
                                    std::holds_alternative<store::Applied>(written) ? 1 : 0});
  return std::optional<FinalResultRecord>{};
}

}  // namespace spotcheck::location::creation
