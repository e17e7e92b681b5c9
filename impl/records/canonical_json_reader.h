// Strict, schema-driven reader of canonical JSON (the inverse of CanonicalJsonWriter).
//
// The decoders call it in the exact canonical order of their schema; it accepts only the bytes
// the writer would produce: no whitespace, keys in schema order (unknown, missing, duplicated
// and out-of-order keys are told apart), canonical string escapes, valid UTF-8, integers without
// sign, fraction, exponent or leading zeros. The first error is sticky: later calls do nothing
// and return neutral values, so a decoder can run straight through and check failed() once.
// No exceptions, no recursion, every loop bounded by the input size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "impl/records/record_error.h"

namespace spotcheck::records {

// The keys of one object level, ascending by bytes; `path` names the object in messages.
struct ObjectSchema {
  std::string_view path;
  std::span<const std::string_view> keys;
};

class CanonicalJsonReader {
 public:
  explicit CanonicalJsonReader(std::string_view input) : _input(input) {}

  bool failed() const { return _error.has_value(); }
  RecordError take_error();
  std::size_t offset() const { return _pos; }

  // Records the first error only; appends the byte offset to the message.
  void fail(RecordErrorKind kind, std::string_view path, std::string_view what);

  // ---- Objects with a fixed schema -------------------------------------------------------
  bool begin_object(std::string_view path);
  // Expects member `index` of the schema next (preceded by ',' unless index is 0) and consumes
  // its key and ':'. False (with an error recorded) when anything else is there.
  bool key(const ObjectSchema& schema, std::size_t index);
  void end_object(const ObjectSchema& schema);

  // ---- Objects with free keys (channelWeights) ---------------------------------------------
  // After begin_object: the next key (':' consumed), or nothing at '}' or on an error.
  // More than `entries_max` members is kTooLarge. The caller checks key order.
  std::optional<std::string> next_member(std::size_t index, std::size_t entries_max,
                                         std::string_view path);

  // ---- Arrays ------------------------------------------------------------------------------
  bool begin_array(std::string_view path);
  // True when element `index` follows (',' consumed), false at ']'. More than `entries_max`
  // elements is kTooLarge.
  bool next_element(std::size_t index, std::size_t entries_max, std::string_view path);

  // ---- Values ------------------------------------------------------------------------------
  bool consume_null();  // true (and consumed) when the next value is null
  std::string string(std::string_view path);
  std::uint64_t number(std::string_view path, std::uint64_t max);          // a JSON integer
  std::uint64_t decimal_string(std::string_view path, std::uint64_t max);  // "123"
  bool boolean(std::string_view path);
  std::string base64(std::string_view path);  // the decoded bytes of a base64 string
  // The number 1, else kUnknownRecordVersion.
  void record_version(std::string_view path);

  // After the top-level value: no bytes may follow.
  void finish();

  template <class E, class Parse>
  E enum_value(std::string_view path, Parse parse) {
    const std::size_t at = _pos;
    _scratch.clear();
    append_string(_scratch, path);
    if (failed()) {
      return E{};
    }
    const std::optional<E> value = parse(std::string_view(_scratch));
    if (!value) {
      _pos = at;
      fail(RecordErrorKind::kInvalidEnum, path, "unknown value \"" + _scratch + "\"");
      return E{};
    }
    return *value;
  }

 private:
  enum class ValueKind { kString, kNumber, kObject, kArray, kBool, kNull, kWhitespace, kEnd,
                         kInvalid };
  ValueKind value_kind() const;
  // Records the error for finding `found` where `expected` (e.g. "a string") belongs.
  void fail_expected(ValueKind found, std::string_view path, std::string_view expected);
  // Classifies an unexpected byte where a structural character belongs.
  bool expect_char(char c, std::string_view path);
  void fail_unexpected_key(const ObjectSchema& schema, std::size_t index);
  void fail_extra_key(const ObjectSchema& schema);
  // The string value's decoded text appended to `out` (a buffer the caller reuses).
  void append_string(std::string& out, std::string_view path);
  void read_escape(std::string& out, std::string_view path);

  std::string_view _input;
  std::size_t _pos = 0;
  std::optional<RecordError> _error;
  std::string _scratch;
};

}  // namespace spotcheck::records
