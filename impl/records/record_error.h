// Typed errors of the public record codec (spec §3.4): every decoder and validator returns a
// value or one of these, never throws, never asserts on input bytes.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "impl/check/check.h"

namespace spotcheck::records {

enum class RecordErrorKind {
  kMalformedJson,         // not JSON, truncated, trailing bytes, raw control character in a string
  kNotCanonical,          // valid JSON but not the canonical form (whitespace, key order, escapes,
                          // leading zeros, duplicate keys, non-canonical base64 padding bits)
  kUnknownRecordVersion,  // recordVersion is not 1: refuse to guess how to read it (spec §3.4)
  kMissingField,          // a schema field is absent (nullable fields must be present as null)
  kUnknownField,          // a key the version-1 schema does not have
  kWrongType,             // e.g. a number where a decimal string is expected, 1.5 for an integer
  kOutOfRange,            // an integer outside its field's range (generations, weights, limits)
  kTooLarge,              // the record or a list exceeds its size/count limit (spec §4)
  kInvalidIdentity,       // identity text: 1..255 UTF-8 bytes, no NUL (spec §3.3)
  kInvalidUtf8,           // a string that is not valid UTF-8
  kInvalidHex,            // routing id / SHA-256 not lowercase hex of the right length
  kInvalidBase64,         // payload is not standard padded base64
  kInvalidEnum,           // a string outside its field's value set (state, objectKind, ...)
  kInconsistent,          // fields that must agree do not (top-level copies, spotType vs objectKind)
};

std::string_view to_string(RecordErrorKind kind);

struct RecordError {
  RecordErrorKind kind = RecordErrorKind::kMalformedJson;
  std::string message;  // names the field path and, for parse errors, the byte offset
};

// One line: "<kind>: <message>", e.g. "kOutOfRange: descriptor.placementWeight: 10001 > 10000".
std::string describe(const RecordError& error);

// A value or a typed error (a small expected-like wrapper over std::variant).
template <class T>
class RecordResult {
 public:
  RecordResult(T value) : _state(std::in_place_index<0>, std::move(value)) {}  // NOLINT
  RecordResult(RecordError error) : _state(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return _state.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    SPOTCHECK_ASSERT(ok());
    return std::get<0>(_state);
  }
  const T& value() const& {
    SPOTCHECK_ASSERT(ok());
    return std::get<0>(_state);
  }
  T&& value() && {
    SPOTCHECK_ASSERT(ok());
    return std::get<0>(std::move(_state));
  }
  const RecordError& error() const {
    SPOTCHECK_ASSERT(!ok());
    return std::get<1>(_state);
  }
  const std::variant<T, RecordError>& variant() const { return _state; }

 private:
  std::variant<T, RecordError> _state;
};

}  // namespace spotcheck::records
