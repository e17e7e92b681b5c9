#include "impl/records/canonical_json_reader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <utility>

#include "impl/bytes/hex.h"
#include "impl/check/check.h"
#include "impl/records/base64.h"
#include "impl/records/json_scan.h"
#include "impl/records/swar.h"
#include "impl/records/validate.h"

namespace spotcheck::records {
namespace {

// Inlined short comparison (keys are 2..29 bytes), eight bytes at a time.
inline bool bytes_equal(const char* a, const char* b, std::size_t size) {
  if (size < 8) {
    for (std::size_t i = 0; i < size; ++i) {
      if (a[i] != b[i]) {
        return false;
      }
    }
    return true;
  }
  std::uint64_t diff = 0;
  for (std::size_t i = 0; i + 8 <= size; i += 8) {
    diff |= swar::load(a + i) ^ swar::load(b + i);
  }
  // The last eight bytes, overlapping the loop's last word when size is not a multiple of 8.
  diff |= swar::load(a + size - 8) ^ swar::load(b + size - 8);
  return diff == 0;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string join_path(std::string_view path, std::string_view key) {
  std::string joined(path);
  if (!joined.empty()) {
    joined += '.';
  }
  joined += key;
  return joined;
}

// True when `rest` is a proper prefix of a UTF-8 sequence cut by the end of the input.
bool is_truncated_utf8(std::string_view rest) {
  SPOTCHECK_ASSERT(!rest.empty());
  const auto lead = static_cast<unsigned char>(rest[0]);
  std::size_t length = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
  } else {
    return false;
  }
  if (rest.size() >= length) {
    return false;
  }
  for (std::size_t k = 1; k < rest.size(); ++k) {
    const auto byte = static_cast<unsigned char>(rest[k]);
    if (byte < 0x80 || byte > 0xbf) {
      return false;
    }
  }
  return true;
}

}  // namespace

RecordError CanonicalJsonReader::take_error() {
  SPOTCHECK_ASSERT(_error.has_value());
  RecordError error = std::move(*_error);
  _error.reset();
  return error;
}

void CanonicalJsonReader::fail(RecordErrorKind kind, std::string_view path, std::string_view what) {
  if (_error) {
    return;  // the first error wins
  }
  std::string message;
  if (!path.empty()) {
    message += path;
    message += ": ";
  }
  message += what;
  message += " (at byte ";
  message += std::to_string(_pos);
  message += ')';
  _error = RecordError{kind, std::move(message)};
}

CanonicalJsonReader::ValueKind CanonicalJsonReader::value_kind() const {
  if (_pos >= _input.size()) {
    return ValueKind::kEnd;
  }
  const std::string_view rest = _input.substr(_pos);
  switch (rest.front()) {
    case '"': return ValueKind::kString;
    case '{': return ValueKind::kObject;
    case '[': return ValueKind::kArray;
    case 't': return rest.starts_with("true") ? ValueKind::kBool : ValueKind::kInvalid;
    case 'f': return rest.starts_with("false") ? ValueKind::kBool : ValueKind::kInvalid;
    case 'n': return rest.starts_with("null") ? ValueKind::kNull : ValueKind::kInvalid;
    case '-': return ValueKind::kNumber;
    default: break;
  }
  if (is_digit(rest.front())) {
    return ValueKind::kNumber;
  }
  if (is_whitespace(rest.front())) {
    return ValueKind::kWhitespace;
  }
  return ValueKind::kInvalid;
}

void CanonicalJsonReader::fail_expected(ValueKind found, std::string_view path,
                                        std::string_view expected) {
  const std::string want = "expected " + std::string(expected);
  switch (found) {
    case ValueKind::kEnd:
      fail(RecordErrorKind::kMalformedJson, path, want + ", found the end of input (truncated)");
      return;
    case ValueKind::kWhitespace:
      fail(RecordErrorKind::kNotCanonical, path, want + ", found whitespace");
      return;
    case ValueKind::kInvalid:
      fail(RecordErrorKind::kMalformedJson, path, want + ", found a byte that starts no JSON value");
      return;
    case ValueKind::kString: fail(RecordErrorKind::kWrongType, path, want + ", found a string"); return;
    case ValueKind::kNumber: fail(RecordErrorKind::kWrongType, path, want + ", found a number"); return;
    case ValueKind::kObject: fail(RecordErrorKind::kWrongType, path, want + ", found an object"); return;
    case ValueKind::kArray: fail(RecordErrorKind::kWrongType, path, want + ", found an array"); return;
    case ValueKind::kBool: fail(RecordErrorKind::kWrongType, path, want + ", found a boolean"); return;
    case ValueKind::kNull: fail(RecordErrorKind::kWrongType, path, want + ", found null"); return;
  }
}

bool CanonicalJsonReader::expect_char(char c, std::string_view path) {
  if (failed()) {
    return false;
  }
  if (_pos < _input.size() && _input[_pos] == c) {
    ++_pos;
    return true;
  }
  const std::string want = std::string("expected '") + c + "'";
  if (_pos >= _input.size()) {
    fail(RecordErrorKind::kMalformedJson, path, want + ", found the end of input (truncated)");
  } else if (is_whitespace(_input[_pos])) {
    fail(RecordErrorKind::kNotCanonical, path, want + ", found whitespace");
  } else {
    fail(RecordErrorKind::kMalformedJson, path, want);
  }
  return false;
}

// ---- Objects ---------------------------------------------------------------------------------

bool CanonicalJsonReader::begin_object(std::string_view path) {
  if (failed()) {
    return false;
  }
  if (_pos >= _input.size() || _input[_pos] != '{') {
    fail_expected(value_kind(), path, "an object");
    return false;
  }
  ++_pos;
  return true;
}

bool CanonicalJsonReader::key(const ObjectSchema& schema, std::size_t index) {
  if (failed()) {
    return false;
  }
  SPOTCHECK_ASSERT(index < schema.keys.size());
  // Fast path: exactly [,]"key": at this position.
  {
    const std::string_view name = schema.keys[index];
    const std::size_t comma = index > 0 ? 1 : 0;
    const std::size_t token_bytes = comma + name.size() + 3;
    const char* p = _input.data() + _pos;
    if (_input.size() - _pos >= token_bytes && (comma == 0 || p[0] == ',') && p[comma] == '"' &&
        bytes_equal(p + comma + 1, name.data(), name.size()) &&
        p[comma + 1 + name.size()] == '"' && p[comma + 2 + name.size()] == ':') {
      _pos += token_bytes;
      return true;
    }
  }
  if (_pos < _input.size() && _input[_pos] == '}') {
    fail(RecordErrorKind::kMissingField, join_path(schema.path, schema.keys[index]),
         "missing field");
    return false;
  }
  if (index > 0 && !expect_char(',', schema.path)) {
    return false;
  }
  fail_unexpected_key(schema, index);
  return false;
}

void CanonicalJsonReader::fail_unexpected_key(const ObjectSchema& schema, std::size_t index) {
  const std::size_t member_start = _pos;
  if (_pos < _input.size() && _input[_pos] == '}') {
    fail(RecordErrorKind::kMalformedJson, schema.path, "trailing comma");
    return;
  }
  const ValueKind kind = value_kind();
  if (kind != ValueKind::kString) {
    if (kind == ValueKind::kEnd || kind == ValueKind::kWhitespace) {
      fail_expected(kind, schema.path, "a key");
    } else {
      fail(RecordErrorKind::kMalformedJson, schema.path, "expected a key string");
    }
    return;
  }
  const std::string actual = string(schema.path);
  if (failed()) {
    return;
  }
  std::size_t found = schema.keys.size();
  for (std::size_t j = 0; j < schema.keys.size(); ++j) {
    if (schema.keys[j] == actual) {
      found = j;
      break;
    }
  }
  if (found == index) {
    expect_char(':', join_path(schema.path, actual));  // the key itself was fine
    SPOTCHECK_ASSERT(failed());
    return;
  }
  _pos = member_start;
  if (found == schema.keys.size()) {
    fail(RecordErrorKind::kUnknownField, join_path(schema.path, actual),
         "not a field of record version 1");
    return;
  }
  if (found < index) {
    fail(RecordErrorKind::kNotCanonical, join_path(schema.path, actual),
         "duplicated or out-of-order key");
    return;
  }
  // A later key: the expected one is either out of order (it appears further on) or missing.
  const std::string_view expected = schema.keys[index];
  if (json_scan::find_member(_input, member_start, expected)) {
    fail(RecordErrorKind::kNotCanonical, join_path(schema.path, expected),
         "key out of canonical order");
  } else {
    fail(RecordErrorKind::kMissingField, join_path(schema.path, expected), "missing field");
  }
}

void CanonicalJsonReader::end_object(const ObjectSchema& schema) {
  if (failed()) {
    return;
  }
  if (_pos < _input.size() && _input[_pos] == '}') {
    ++_pos;
    return;
  }
  if (_pos < _input.size() && _input[_pos] == ',') {
    ++_pos;
    fail_extra_key(schema);
    return;
  }
  expect_char('}', schema.path);
}

void CanonicalJsonReader::fail_extra_key(const ObjectSchema& schema) {
  const std::size_t member_start = _pos;
  if (value_kind() != ValueKind::kString) {
    fail(RecordErrorKind::kMalformedJson, schema.path, "expected a key string after ','");
    return;
  }
  const std::string actual = string(schema.path);
  if (failed()) {
    return;
  }
  _pos = member_start;
  for (std::string_view known : schema.keys) {
    if (known == actual) {
      fail(RecordErrorKind::kNotCanonical, join_path(schema.path, actual), "duplicated key");
      return;
    }
  }
  fail(RecordErrorKind::kUnknownField, join_path(schema.path, actual),
       "not a field of record version 1");
}

std::optional<std::string> CanonicalJsonReader::next_member(std::size_t index,
                                                            std::size_t entries_max,
                                                            std::string_view path) {
  if (failed()) {
    return std::nullopt;
  }
  if (_pos < _input.size() && _input[_pos] == '}') {
    ++_pos;
    return std::nullopt;
  }
  if (index > 0 && !expect_char(',', path)) {
    return std::nullopt;
  }
  if (index >= entries_max) {
    fail(RecordErrorKind::kTooLarge, path,
         "more than " + std::to_string(entries_max) + " entries");
    return std::nullopt;
  }
  if (value_kind() != ValueKind::kString) {
    fail_expected(value_kind(), path, "a key string");
    return std::nullopt;
  }
  std::string key = string(path);
  if (!expect_char(':', path)) {
    return std::nullopt;
  }
  return key;
}

// ---- Arrays ----------------------------------------------------------------------------------

bool CanonicalJsonReader::begin_array(std::string_view path) {
  if (failed()) {
    return false;
  }
  const ValueKind kind = value_kind();
  if (kind != ValueKind::kArray) {
    fail_expected(kind, path, "an array");
    return false;
  }
  ++_pos;
  return true;
}

bool CanonicalJsonReader::next_element(std::size_t index, std::size_t entries_max,
                                       std::string_view path) {
  if (failed()) {
    return false;
  }
  if (_pos < _input.size() && _input[_pos] == ']') {
    ++_pos;
    return false;
  }
  if (index > 0 && !expect_char(',', path)) {
    return false;
  }
  if (index >= entries_max) {
    fail(RecordErrorKind::kTooLarge, path,
         "more than " + std::to_string(entries_max) + " entries");
    return false;
  }
  return true;
}

// ---- Values ----------------------------------------------------------------------------------

bool CanonicalJsonReader::consume_null() {
  if (failed()) {
    return false;
  }
  if (value_kind() == ValueKind::kNull) {
    _pos += 4;
    return true;
  }
  return false;
}

void CanonicalJsonReader::read_escape(std::string& out, std::string_view path) {
  SPOTCHECK_ASSERT(_input[_pos] == '\\');
  if (_input.size() - _pos < 2) {
    fail(RecordErrorKind::kMalformedJson, path, "truncated escape");
    return;
  }
  const char code = _input[_pos + 1];
  char decoded = 0;
  switch (code) {
    case '"': decoded = '"'; break;
    case '\\': decoded = '\\'; break;
    case 'b': decoded = '\b'; break;
    case 'f': decoded = '\f'; break;
    case 'n': decoded = '\n'; break;
    case 'r': decoded = '\r'; break;
    case 't': decoded = '\t'; break;
    case '/':
      fail(RecordErrorKind::kNotCanonical, path, "'/' is written raw, not escaped");
      return;
    case 'u': {
      if (_input.size() - _pos < 6) {
        fail(RecordErrorKind::kMalformedJson, path, "truncated \\u escape");
        return;
      }
      int value = 0;
      bool lowercase = true;
      for (std::size_t k = 2; k < 6; ++k) {
        const char c = _input[_pos + k];
        const int digit = bytes::hex_value(c);
        if (digit < 0) {
          fail(RecordErrorKind::kMalformedJson, path, "bad hex digit in \\u escape");
          return;
        }
        lowercase = lowercase && !(c >= 'A' && c <= 'F');
        value = value * 16 + digit;
      }
      const bool has_short_form = value == '\b' || value == '\f' || value == '\n' ||
                                  value == '\r' || value == '\t';
      if (value >= 0x20 || has_short_form || !lowercase) {
        fail(RecordErrorKind::kNotCanonical, path,
             "\\u escapes are only for control characters without a short form, in lowercase");
        return;
      }
      out.push_back(static_cast<char>(value));
      _pos += 6;
      return;
    }
    default:
      fail(RecordErrorKind::kMalformedJson, path, "invalid escape");
      return;
  }
  out.push_back(decoded);
  _pos += 2;
}

void CanonicalJsonReader::append_string(std::string& out, std::string_view path) {
  if (failed()) {
    return;
  }
  if (_pos >= _input.size() || _input[_pos] != '"') {
    fail_expected(value_kind(), path, "a string");
    return;
  }
  ++_pos;
  std::size_t run_start = _pos;
  // Each round advances _pos by at least one byte.
  while (_pos < _input.size()) {
    // Skip plain ASCII eight bytes at a time, landing on the first byte that needs a look.
    while (_input.size() - _pos >= 8) {
      const std::uint64_t mask = swar::attention_mask(swar::load(_input.data() + _pos));
      if (mask != 0) {
        _pos += static_cast<std::size_t>(std::countr_zero(mask)) / 8;
        break;
      }
      _pos += 8;
    }
    if (_pos >= _input.size()) {
      break;
    }
    const auto c = static_cast<unsigned char>(_input[_pos]);
    if (c == '"') {
      out.append(_input.substr(run_start, _pos - run_start));
      ++_pos;
      return;
    }
    if (c == '\\') {
      out.append(_input.substr(run_start, _pos - run_start));
      read_escape(out, path);
      if (failed()) {
        return;
      }
      run_start = _pos;
      continue;
    }
    if (c < 0x20) {
      fail(RecordErrorKind::kMalformedJson, path, "raw control character in a string");
      return;
    }
    if (c < 0x80) {
      ++_pos;
      continue;
    }
    const std::size_t length = utf8_sequence_bytes(_input.substr(_pos));
    if (length == 0) {
      if (is_truncated_utf8(_input.substr(_pos))) {
        fail(RecordErrorKind::kMalformedJson, path, "input ends inside a UTF-8 sequence");
      } else {
        fail(RecordErrorKind::kInvalidUtf8, path, "invalid UTF-8 in a string");
      }
      return;
    }
    _pos += length;
  }
  fail(RecordErrorKind::kMalformedJson, path, "unterminated string (truncated)");
}

std::string CanonicalJsonReader::string(std::string_view path) {
  std::string out;
  append_string(out, path);
  return out;
}

std::uint64_t CanonicalJsonReader::number(std::string_view path, std::uint64_t max) {
  if (failed()) {
    return 0;
  }
  if (_pos >= _input.size() || !(is_digit(_input[_pos]) || _input[_pos] == '-')) {
    fail_expected(value_kind(), path, "an integer");
    return 0;
  }
  if (_input[_pos] == '-') {
    if (_pos + 1 < _input.size() && is_digit(_input[_pos + 1])) {
      fail(RecordErrorKind::kOutOfRange, path, "negative number");
    } else {
      fail(RecordErrorKind::kMalformedJson, path, "'-' without digits");
    }
    return 0;
  }
  const std::size_t start = _pos;
  std::uint64_t value = 0;
  bool overflow = false;
  while (_pos < _input.size() && is_digit(_input[_pos])) {  // bounded by the input
    const auto digit = static_cast<std::uint64_t>(_input[_pos] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      overflow = true;
    } else {
      value = value * 10 + digit;
    }
    ++_pos;
  }
  if (_input[start] == '0' && _pos - start > 1) {
    _pos = start;
    fail(RecordErrorKind::kMalformedJson, path, "leading zero in a number");
    return 0;
  }
  if (_pos < _input.size() &&
      (_input[_pos] == '.' || _input[_pos] == 'e' || _input[_pos] == 'E')) {
    _pos = start;
    fail(RecordErrorKind::kWrongType, path, "expected an integer, found a fraction or exponent");
    return 0;
  }
  if (overflow || value > max) {
    const std::string text(_input.substr(start, std::min<std::size_t>(_pos - start, 40)));
    _pos = start;
    fail(RecordErrorKind::kOutOfRange, path, text + " > " + std::to_string(max));
    return 0;
  }
  return value;
}

std::uint64_t CanonicalJsonReader::decimal_string(std::string_view path, std::uint64_t max) {
  if (failed()) {
    return 0;
  }
  if (_pos >= _input.size() || _input[_pos] != '"') {
    fail_expected(value_kind(), path, "a decimal integer string");
    return 0;
  }
  const std::size_t start = _pos;
  std::size_t pos = _pos + 1;
  std::uint64_t value = 0;
  bool overflow = false;
  while (pos < _input.size() && is_digit(_input[pos])) {  // bounded by the input
    const auto digit = static_cast<std::uint64_t>(_input[pos] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      overflow = true;
    } else {
      value = value * 10 + digit;
    }
    ++pos;
  }
  const std::size_t digit_count = pos - start - 1;
  if (pos >= _input.size() || _input[pos] != '"' || digit_count == 0) {
    // Not digits only: find out whether it is a string at all.
    _scratch.clear();
    append_string(_scratch, path);
    if (failed()) {
      return 0;
    }
    _pos = start;
    if (_scratch.size() > 1 && _scratch[0] == '-' && is_digit(_scratch[1])) {
      fail(RecordErrorKind::kOutOfRange, path, "negative value \"" + _scratch + "\"");
    } else {
      fail(RecordErrorKind::kWrongType, path,
           "expected a decimal integer string, found \"" + _scratch.substr(0, 32) + "\"");
    }
    return 0;
  }
  if (_input[start + 1] == '0' && digit_count > 1) {
    fail(RecordErrorKind::kNotCanonical, path, "leading zero in a decimal string");
    return 0;
  }
  if (overflow || value > max) {
    fail(RecordErrorKind::kOutOfRange, path,
         std::string(_input.substr(start + 1, std::min<std::size_t>(digit_count, 40))) + " > " +
             std::to_string(max));
    return 0;
  }
  _pos = pos + 1;
  return value;
}

bool CanonicalJsonReader::boolean(std::string_view path) {
  if (failed()) {
    return false;
  }
  const ValueKind kind = value_kind();
  if (kind != ValueKind::kBool) {
    fail_expected(kind, path, "a boolean");
    return false;
  }
  const bool value = _input[_pos] == 't';
  _pos += value ? 4 : 5;
  return value;
}

std::string CanonicalJsonReader::base64(std::string_view path) {
  if (failed()) {
    return {};
  }
  const std::size_t start = _pos;
  _scratch.clear();
  append_string(_scratch, path);
  if (failed()) {
    return {};
  }
  Base64Decoded decoded = base64_decode(_scratch);
  if (decoded.status == Base64Status::kOk) {
    return std::move(decoded.bytes);
  }
  _pos = start;
  if (decoded.status == Base64Status::kNotCanonical) {
    fail(RecordErrorKind::kNotCanonical, path, "base64 with non-zero padding bits");
  } else {
    fail(RecordErrorKind::kInvalidBase64, path, "not standard padded base64");
  }
  return {};
}

void CanonicalJsonReader::record_version(std::string_view path) {
  const std::size_t start = _pos;
  const std::uint64_t version = number(path, std::numeric_limits<std::uint64_t>::max());
  if (failed()) {
    return;
  }
  if (version != 1) {
    _pos = start;
    fail(RecordErrorKind::kUnknownRecordVersion, path,
         "recordVersion " + std::to_string(version) + " is not 1, the only version this reads");
  }
}

void CanonicalJsonReader::finish() {
  if (failed()) {
    return;
  }
  if (_pos == _input.size()) {
    return;
  }
  if (is_whitespace(_input[_pos])) {
    fail(RecordErrorKind::kNotCanonical, "", "trailing whitespace");
  } else {
    fail(RecordErrorKind::kMalformedJson, "", "trailing bytes after the record");
  }
}

}  // namespace spotcheck::records
