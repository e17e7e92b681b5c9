#include "impl/records/record_error.h"

namespace spotcheck::records {

std::string_view to_string(RecordErrorKind kind) {
  switch (kind) {
    case RecordErrorKind::kMalformedJson: return "kMalformedJson";
    case RecordErrorKind::kNotCanonical: return "kNotCanonical";
    case RecordErrorKind::kUnknownRecordVersion: return "kUnknownRecordVersion";
    case RecordErrorKind::kMissingField: return "kMissingField";
    case RecordErrorKind::kUnknownField: return "kUnknownField";
    case RecordErrorKind::kWrongType: return "kWrongType";
    case RecordErrorKind::kOutOfRange: return "kOutOfRange";
    case RecordErrorKind::kTooLarge: return "kTooLarge";
    case RecordErrorKind::kInvalidIdentity: return "kInvalidIdentity";
    case RecordErrorKind::kInvalidUtf8: return "kInvalidUtf8";
    case RecordErrorKind::kInvalidHex: return "kInvalidHex";
    case RecordErrorKind::kInvalidBase64: return "kInvalidBase64";
    case RecordErrorKind::kInvalidEnum: return "kInvalidEnum";
    case RecordErrorKind::kInconsistent: return "kInconsistent";
  }
  return "kUnknownErrorKind";
}

std::string describe(const RecordError& error) {
  std::string line(to_string(error.kind));
  line += ": ";
  line += error.message;
  return line;
}

}  // namespace spotcheck::records
