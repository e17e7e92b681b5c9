#include "impl/records/canonical_json_writer.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "impl/bytes/hex.h"
#include "impl/check/check.h"
#include "impl/records/base64.h"
#include "impl/records/swar.h"

namespace spotcheck::records {

namespace {

constexpr std::array<std::uint8_t, 256> make_escape_table() {
  std::array<std::uint8_t, 256> table{};
  for (std::size_t c = 0; c < 0x20; ++c) {
    table[c] = 1;
  }
  table['"'] = 1;
  table['\\'] = 1;
  return table;
}
constexpr std::array<std::uint8_t, 256> kNeedsEscape = make_escape_table();

bool has_escapes(std::string_view text) {
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    if (swar::needs_escape(swar::load(text.data() + i))) {
      return true;
    }
  }
  std::uint8_t found = 0;
  for (; i < text.size(); ++i) {
    found |= kNeedsEscape[static_cast<unsigned char>(text[i])];  // branch-free tail
  }
  return found != 0;
}

}  // namespace

CanonicalJsonWriter::CanonicalJsonWriter(std::size_t expected_bytes) {
  _out.resize(std::max<std::size_t>(expected_bytes, 64));
}

std::string CanonicalJsonWriter::take() {
  SPOTCHECK_ASSERT(_depth == 0);
  SPOTCHECK_ASSERT(_size <= _out.size());
  _out.resize(_size);
  _size = 0;
  return std::move(_out);
}

void CanonicalJsonWriter::grow(std::size_t bytes) {
  _out.resize(std::max(_out.size() * 2, _size + bytes));
  SPOTCHECK_ASSERT(_out.size() - _size >= bytes);
}

void CanonicalJsonWriter::put(std::string_view text) {
  char* cursor = reserve(text.size());
  std::memcpy(cursor, text.data(), text.size());
  _size += text.size();
}

void CanonicalJsonWriter::before_value() {
  if (_after_key) {
    _after_key = false;
    return;
  }
  // An array element (or the top-level value).
  SPOTCHECK_ASSERT(_depth == 0 || !_in_object[_depth]);
  if (_depth > 0) {
    if (!_first[_depth]) {
      put(',');
    }
    _first[_depth] = false;
  }
}

void CanonicalJsonWriter::begin_object() {
  before_value();
  SPOTCHECK_ASSERT(_depth < kDepthMax);
  put('{');
  ++_depth;
  _first[_depth] = true;
  _in_object[_depth] = true;
  _last_key[_depth] = {};
}

void CanonicalJsonWriter::end_object() {
  SPOTCHECK_ASSERT(_depth > 0);
  SPOTCHECK_ASSERT(_in_object[_depth]);
  SPOTCHECK_ASSERT(!_after_key);
  put('}');
  --_depth;
}

void CanonicalJsonWriter::begin_array() {
  before_value();
  SPOTCHECK_ASSERT(_depth < kDepthMax);
  put('[');
  ++_depth;
  _first[_depth] = true;
  _in_object[_depth] = false;
}

void CanonicalJsonWriter::end_array() {
  SPOTCHECK_ASSERT(_depth > 0);
  SPOTCHECK_ASSERT(!_in_object[_depth]);
  put(']');
  --_depth;
}

void CanonicalJsonWriter::key(std::string_view name) {
  SPOTCHECK_ASSERT(_depth > 0);
  SPOTCHECK_ASSERT(_in_object[_depth]);
  SPOTCHECK_ASSERT(!_after_key);
  // Canonical order: strictly ascending by bytes (std::string_view compares as unsigned char).
  SPOTCHECK_ASSERT(_first[_depth] || _last_key[_depth] < name);
  SPOTCHECK_ASSERT(!has_escapes(name));
  const bool first = _first[_depth];
  _first[_depth] = false;
  _last_key[_depth] = name;
  _after_key = true;
  // ,"name": in one write.
  char* cursor = reserve(name.size() + 4);
  if (!first) {
    *cursor++ = ',';
  }
  *cursor++ = '"';
  std::memcpy(cursor, name.data(), name.size());
  cursor += name.size();
  *cursor++ = '"';
  *cursor++ = ':';
  _size += name.size() + (first ? 3 : 4);
}

void CanonicalJsonWriter::free_key(std::string_view name) {
  SPOTCHECK_ASSERT(_depth > 0);
  SPOTCHECK_ASSERT(_in_object[_depth]);
  SPOTCHECK_ASSERT(!_after_key);
  SPOTCHECK_ASSERT(_first[_depth] || _last_key[_depth] < name);
  if (!_first[_depth]) {
    put(',');
  }
  _first[_depth] = false;
  _last_key[_depth] = name;
  put_string(name);
  put(':');
  _after_key = true;
}

void CanonicalJsonWriter::string_value(std::string_view text) {
  before_value();
  put_string(text);
}


void CanonicalJsonWriter::put_string(std::string_view text) {
  if (!has_escapes(text)) {  // the common case: copy as is
    char* cursor = reserve(text.size() + 2);
    cursor[0] = '"';
    std::memcpy(cursor + 1, text.data(), text.size());
    cursor[text.size() + 1] = '"';
    _size += text.size() + 2;
    return;
  }
  // Worst case every byte becomes \u00xx.
  char* const start = reserve(text.size() * 6 + 2);
  char* cursor = start;
  *cursor++ = '"';
  const char* in = text.data();
  const char* const end = in + text.size();
  while (in != end) {
    // Copy clean eight-byte blocks without looking at each byte.
    while (end - in >= 8) {
      const std::uint64_t word = swar::load(in);
      if (swar::needs_escape(word)) {
        break;
      }
      std::memcpy(cursor, in, 8);
      cursor += 8;
      in += 8;
    }
    if (in == end) {
      break;
    }
    const auto c = static_cast<unsigned char>(*in++);
    if (c >= 0x20 && c != '"' && c != '\\') {
      *cursor++ = static_cast<char>(c);  // raw, including every non-ASCII byte and DEL
      continue;
    }
    *cursor++ = '\\';
    switch (c) {
      case '"': *cursor++ = '"'; break;
      case '\\': *cursor++ = '\\'; break;
      case '\b': *cursor++ = 'b'; break;
      case '\f': *cursor++ = 'f'; break;
      case '\n': *cursor++ = 'n'; break;
      case '\r': *cursor++ = 'r'; break;
      case '\t': *cursor++ = 't'; break;
      default:
        SPOTCHECK_ASSERT(c < 0x20);
        *cursor++ = 'u';
        *cursor++ = '0';
        *cursor++ = '0';
        *cursor++ = bytes::hex_digit(c >> 4U);
        *cursor++ = bytes::hex_digit(c);
        break;
    }
  }
  *cursor++ = '"';
  SPOTCHECK_ASSERT(static_cast<std::size_t>(cursor - start) <= text.size() * 6 + 2);
  _size += static_cast<std::size_t>(cursor - start);
}

void CanonicalJsonWriter::put_decimal(std::uint64_t value) {
  char digits[20];
  std::size_t count = 0;
  do {
    SPOTCHECK_ASSERT(count < sizeof(digits));
    digits[sizeof(digits) - 1 - count] = static_cast<char>('0' + value % 10);
    ++count;
    value /= 10;
  } while (value != 0);
  put(std::string_view(digits + sizeof(digits) - count, count));
}

void CanonicalJsonWriter::number_value(std::uint64_t value) {
  before_value();
  put_decimal(value);
}

void CanonicalJsonWriter::decimal_string_value(std::uint64_t value) {
  before_value();
  put('"');
  put_decimal(value);
  put('"');
}

void CanonicalJsonWriter::bool_value(bool value) {
  before_value();
  put(value ? std::string_view("true") : std::string_view("false"));
}

void CanonicalJsonWriter::null_value() {
  before_value();
  put("null");
}

void CanonicalJsonWriter::base64_value(std::string_view bytes) {
  before_value();
  const std::size_t encoded_bytes = base64_encoded_bytes(bytes.size());
  char* cursor = reserve(encoded_bytes + 2);
  *cursor = '"';
  base64_encode_into(bytes, cursor + 1);
  cursor[encoded_bytes + 1] = '"';
  _size += encoded_bytes + 2;
}

}  // namespace spotcheck::records
