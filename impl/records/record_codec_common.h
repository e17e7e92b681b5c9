// Shared steps of the five record codecs (internal to impl/records).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "impl/check/check.h"
#include "impl/records/canonical_json_reader.h"
#include "impl/records/limits.h"
#include "impl/records/record_error.h"
#include "impl/records/record_version_probe.h"

namespace spotcheck::records::detail {

inline std::optional<RecordError> check_record_size(std::string_view bytes) {
  if (bytes.size() > kRecordBytesMax) {
    return RecordError{RecordErrorKind::kTooLarge,
                       "record is " + std::to_string(bytes.size()) + " bytes > " +
                           std::to_string(kRecordBytesMax)};
  }
  return std::nullopt;
}

// After the strict parse: the first parse error (preferring kUnknownRecordVersion), else the
// record's validation error, else the record. Canonical input re-encodes to itself.
template <class Record>
RecordResult<Record> finish_decode(CanonicalJsonReader& reader, std::string_view bytes,
                                   Record&& record) {
  reader.finish();
  if (reader.failed()) {
    return prefer_unknown_record_version(bytes, reader.take_error());
  }
  if (auto error = validate(record)) {
    return std::move(*error);
  }
  SPOTCHECK_ASSERT(encode(record) == bytes);  // strict parsing accepts canonical bytes only
  return std::move(record);
}

template <class Record>
RecordResult<std::string> encode_checked_impl(const Record& record) {
  if (auto error = validate(record)) {
    return std::move(*error);
  }
  std::string bytes = encode(record);
  if (auto error = check_record_size(bytes)) {
    return std::move(*error);
  }
  return bytes;
}

inline RecordError inconsistent(std::string_view field, std::string_view what) {
  std::string message(field);
  message += ": ";
  message += what;
  return RecordError{RecordErrorKind::kInconsistent, std::move(message)};
}

}  // namespace spotcheck::records::detail
