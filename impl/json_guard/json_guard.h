// Untrusted JSON, read safely (issue 9). Every reader of JSON that comes from outside the process
// (record canon input, scenario files, trace files) calls these before anything recursive sees
// the text:
//   1. read_bounded: at most `bytes_max` + 1 bytes are ever read, so /dev/zero, a fifo or a huge
//      file is refused by size instead of exhausting memory;
//   2. check: one linear, non-recursive SAX pass (nlohmann's sax_parse keeps its own explicit
//      stack) that bounds the nesting depth and refuses duplicate keys, naming the key and its
//      JSON path. Only after it passes may the text go to json::parse, dump(), operator== or a
//      reader that walks the tree recursively.
// Syntax errors are not reported by check(): the caller's own parse reports them in its words.
// Every message is one line: control characters in keys are escaped (see one_line).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace spotcheck::json_guard {

// Deep enough for every document Spotcheck reads (records nest 3 levels, scenario files 3),
// shallow enough that any recursive walk of the accepted tree is harmless.
inline constexpr std::size_t kDepthMax = 64;

enum class GuardErrorKind {
  kTooLarge,      // more than bytes_max bytes
  kTooDeep,       // objects/arrays nested deeper than depth_max
  kDuplicateKey,  // one object holds the same key twice
};

struct GuardError {
  GuardErrorKind kind = GuardErrorKind::kTooDeep;
  // The JSON path of the object holding the duplicate (".a.b[2]" style without the leading dot,
  // "" for the top level), or of the value that went too deep.
  std::string path;
  std::string key;  // kDuplicateKey: the repeated key, raw
  // One line, e.g. `duplicate key "name" in workload` or
  // `JSON nesting deeper than 64 levels (the limit) at a.b[0]`.
  std::string message;
};

struct GuardOptions {
  std::size_t depth_max = kDepthMax;
  bool reject_duplicate_keys = true;
};

// nullopt when nothing is nested deeper than depth_max and no object repeats a key (or when
// the text is not JSON at all: the caller's parser reports that). Linear in the text size.
std::optional<GuardError> check(std::string_view text, const GuardOptions& options = {});

struct BoundedText {
  std::string text;
  bool too_large = false;  // more than bytes_max bytes were there; `text` holds bytes_max + 1
};

// Reads `in` to its end, but never more than bytes_max + 1 bytes.
BoundedText read_bounded(std::istream& in, std::size_t bytes_max);

// `text` with every control character (< 0x20, 0x7f) escaped as \n, \t, \r or \xNN, and
// truncated to at most `bytes_max` bytes (then "..." is appended): safe inside a one-line message.
std::string one_line(std::string_view text, std::size_t bytes_max = 200);

}  // namespace spotcheck::json_guard
