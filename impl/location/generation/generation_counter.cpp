#include "impl/location/generation/generation_counter.h"

#include <string>
#include <variant>

#include "impl/check/check.h"
#include "impl/records/limits.h"
#include "impl/store/spi/counter_text.h"

namespace spotcheck::location {

Result<CounterRead> read_generation_counter(store::LocationStore& store, const store::Key& key,
                                            store::DeadlineUs deadline_us) {
  const store::ReadResult read = store.read(key, deadline_us);
  if (const auto* missing = std::get_if<store::Missing>(&read)) {
    return CounterRead{key, 0, std::nullopt, missing->now_ms};
  }
  if (const auto* error = std::get_if<store::StoreError>(&read)) {
    return Error::of(ErrorKind::kStoreError,
                     std::string("reading a generation counter: ") + store::to_string(error->kind) +
                         " " + error->message);
  }
  const auto& found = std::get<store::Found>(read);
  SPOTCHECK_ASSERT(found.version.value != 0);
  const std::optional<std::int64_t> value = store::parse_counter(found.value);
  if (!value.has_value() || *value < 0) {
    return Error::of(ErrorKind::kRecordInvalid, "generation counter holds '" + found.value + "'");
  }
  return CounterRead{key, static_cast<std::uint64_t>(*value), found.version, found.now_ms};
}

Result<std::uint64_t> next_generation(const CounterRead& counter) {
  // The stored range is 0 (absent) .. 2^63-1; the last issuable value is 2^63-2.
  SPOTCHECK_ASSERT(counter.value <= records::kGenerationExhausted);
  if (counter.value >= records::kGenerationMax) {
    return Error::of(ErrorKind::kGenerationExhausted,
                     "counter holds " + std::to_string(counter.value) +
                         ": the next generation would pass 2^63-2");
  }
  const std::uint64_t next = counter.value + 1;
  SPOTCHECK_ASSERT(records::is_issued_generation(next));
  return next;
}

store::Condition counter_condition(const CounterRead& counter) {
  if (counter.version.has_value()) {
    return store::ExpectVersion{counter.key, *counter.version};
  }
  SPOTCHECK_ASSERT(counter.value == 0);
  return store::ExpectAbsent{counter.key};
}

store::Increment counter_increment(const store::Key& key) {
  return store::Increment{key, 1, static_cast<std::int64_t>(records::kGenerationMin),
                          static_cast<std::int64_t>(records::kGenerationMax)};
}

}  // namespace spotcheck::location
