// Canonical JSON writer for the public records (spec §3.4, fixture "canonicalJson"):
// no whitespace, keys in ascending UTF-8 byte order (the caller writes them in that order; debug
// builds assert it), non-ASCII raw, escapes \" \\ \b \f \n \r \t and lowercase \u00xx for the
// other control characters, integers in plain decimal.
//
// Schema-specific callers decide which integers are numbers and which are decimal strings.
// The writer owns its output buffer and writes through a cursor; take() returns the bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace spotcheck::records {

class CanonicalJsonWriter {
 public:
  static constexpr std::size_t kDepthMax = 8;

  explicit CanonicalJsonWriter(std::size_t expected_bytes);

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // Writes the separator and "key": — keys must ascend by bytes within one object.
  // key(): a schema key that needs no escaping (asserted); free_key(): any text (map keys).
  void key(std::string_view name);
  void free_key(std::string_view name);

  void string_value(std::string_view text);
  void number_value(std::uint64_t value);
  void decimal_string_value(std::uint64_t value);  // "123"
  void bool_value(bool value);
  void null_value();
  void base64_value(std::string_view bytes);

  std::size_t depth() const { return _depth; }
  // The finished bytes; the writer is empty afterwards.
  std::string take();

 private:
  void before_value();
  // Room for `bytes` more; returns the cursor.
  char* reserve(std::size_t bytes) {
    if (_out.size() - _size < bytes) [[unlikely]] {
      grow(bytes);
    }
    return _out.data() + _size;
  }
  void grow(std::size_t bytes);
  void put(char c) {
    *reserve(1) = c;
    ++_size;
  }
  void put(std::string_view text);
  void put_decimal(std::uint64_t value);
  void put_string(std::string_view text);

  std::string _out;      // _out.size() is the capacity in use; _size the bytes written
  std::size_t _size = 0;
  std::size_t _depth = 0;
  std::array<bool, kDepthMax + 1> _first{};       // no member/element written yet at this depth
  std::array<bool, kDepthMax + 1> _in_object{};   // object (true) or array (false)
  std::array<std::string_view, kDepthMax + 1> _last_key{};  // debug check of the key order
  bool _after_key = false;
};

}  // namespace spotcheck::records
