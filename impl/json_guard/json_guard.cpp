#include "impl/json_guard/json_guard.h"

#include <algorithm>
#include <array>
#include <istream>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "impl/bytes/hex.h"
#include "impl/check/check.h"

namespace spotcheck::json_guard {
namespace {

using nlohmann::json;

// One open object or array of the SAX pass.
struct Frame {
  bool object = false;
  std::string key;          // object: the key of the member being read
  std::size_t index = 0;    // array: the element being read
  std::unordered_set<std::string> keys;  // object: every key seen so far
};

// A SAX handler that only watches the structure; it stops the parse (returns false) at the
// first guard error and ignores syntax errors (the caller's parser reports those).
class Guard {
 public:
  explicit Guard(const GuardOptions& options) : _options(options) {}

  bool null() { return value_done(); }
  bool boolean(bool) { return value_done(); }
  bool number_integer(json::number_integer_t) { return value_done(); }
  bool number_unsigned(json::number_unsigned_t) { return value_done(); }
  bool number_float(json::number_float_t, const json::string_t&) { return value_done(); }
  bool string(json::string_t&) { return value_done(); }
  bool binary(json::binary_t&) { return value_done(); }

  bool start_object(std::size_t) { return open(true); }
  bool start_array(std::size_t) { return open(false); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& key) {
    SPOTCHECK_ASSERT(!_frames.empty() && _frames.back().object);
    Frame& frame = _frames.back();
    if (_options.reject_duplicate_keys && !frame.keys.insert(key).second) {
      const std::string where = path_of(_frames.size() - 1);
      _error = GuardError{GuardErrorKind::kDuplicateKey, where, key,
                          "duplicate key \"" + one_line(key, 80) + "\" in " +
                              (where.empty() ? std::string("the document") : one_line(where))};
      return false;
    }
    frame.key = key;
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;  // not ours to report
  }

  std::optional<GuardError>& error() { return _error; }

 private:
  bool open(bool object) {
    if (_frames.size() >= _options.depth_max) {
      const std::string where = path_of(_frames.size());
      _error = GuardError{GuardErrorKind::kTooDeep, where, "",
                          "JSON nested deeper than the limit of " +
                              std::to_string(_options.depth_max) + " levels" +
                              (where.empty() ? std::string() : " (at " + one_line(where, 60) + ")")};
      return false;
    }
    _frames.push_back(Frame{object, "", 0, {}});
    return true;
  }

  bool close() {
    SPOTCHECK_ASSERT(!_frames.empty());
    _frames.pop_back();
    return value_done();
  }

  bool value_done() {
    if (!_frames.empty() && !_frames.back().object) {
      ++_frames.back().index;
    }
    return true;
  }

  // The path of the value the first `count` frames lead to.
  std::string path_of(std::size_t count) const {
    SPOTCHECK_ASSERT(count <= _frames.size());
    std::string path;
    for (std::size_t i = 0; i < count; ++i) {  // bounded by depth_max
      const Frame& frame = _frames[i];
      if (frame.object) {
        path += (path.empty() ? "" : ".") + frame.key;
      } else {
        path += "[" + std::to_string(frame.index) + "]";
      }
    }
    return path;
  }

  const GuardOptions& _options;
  std::vector<Frame> _frames;
  std::optional<GuardError> _error;
};

}  // namespace

std::optional<GuardError> check(std::string_view text, const GuardOptions& options) {
  SPOTCHECK_ASSERT(options.depth_max > 0);
  Guard guard(options);
  json::sax_parse(text, &guard);  // stops at the first guard or syntax error
  return std::move(guard.error());
}

BoundedText read_bounded(std::istream& in, std::size_t bytes_max) {
  BoundedText out;
  std::array<char, 64 * 1024> buffer{};
  while (out.text.size() <= bytes_max) {  // bounded: each pass adds bytes or ends
    const std::size_t want = std::min(buffer.size(), bytes_max + 1 - out.text.size());
    in.read(buffer.data(), static_cast<std::streamsize>(want));
    const auto got = static_cast<std::size_t>(in.gcount());
    out.text.append(buffer.data(), got);
    if (got == 0 || !in) {
      break;
    }
  }
  out.too_large = out.text.size() > bytes_max;
  SPOTCHECK_ASSERT(out.text.size() <= bytes_max + 1);
  return out;
}

std::string one_line(std::string_view text, std::size_t bytes_max) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {  // bounded by the text
    if (out.size() >= bytes_max) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      bytes::append_hex_byte(out, c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace spotcheck::json_guard
