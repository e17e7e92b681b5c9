#include "impl/records/record_version_probe.h"

#include <string>

#include "impl/records/json_scan.h"

namespace spotcheck::records {
namespace {

// -?(0|[1-9][0-9]*): an integer token; fractions and exponents keep the strict error.
bool is_json_integer(std::string_view text) {
  if (!text.empty() && text.front() == '-') {
    text.remove_prefix(1);
  }
  if (text.empty() || (text.front() == '0' && text.size() > 1)) {
    return false;
  }
  for (char c : text) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

}  // namespace

RecordError prefer_unknown_record_version(std::string_view bytes, RecordError strict_error) {
  if (strict_error.kind == RecordErrorKind::kUnknownRecordVersion ||
      strict_error.kind == RecordErrorKind::kTooLarge) {
    return strict_error;
  }
  const std::size_t start = json_scan::skip_whitespace(bytes, 0);
  if (start >= bytes.size() || bytes[start] != '{') {
    return strict_error;
  }
  const auto version = json_scan::find_member(bytes, start + 1, "recordVersion");
  if (!version || !is_json_integer(*version) || *version == "1") {
    return strict_error;
  }
  std::string message = "recordVersion ";
  message += version->substr(0, 40);
  message += " is not 1, the only version this reads (strict decoding also reported: ";
  message += describe(strict_error);
  message += ')';
  return RecordError{RecordErrorKind::kUnknownRecordVersion, std::move(message)};
}

}  // namespace spotcheck::records
