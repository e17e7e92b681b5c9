// A lenient, non-validating JSON scanner for cold paths only: it finds a top-level member or
// checks whether a key appears later in an object, so errors can be classified precisely
// (kUnknownRecordVersion before schema errors, out-of-order key vs missing key). Every function
// is bounded by the input size and returns nullopt on anything it does not understand.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace spotcheck::records::json_scan {

// Position after JSON whitespace starting at `pos`.
std::size_t skip_whitespace(std::string_view text, std::size_t pos);
// `pos` at '"': position after the closing quote; the raw (still escaped) content in `raw`.
std::optional<std::size_t> skip_string(std::string_view text, std::size_t pos,
                                       std::string_view* raw);
// `pos` at a value: position after it (objects/arrays skipped by bracket depth).
std::optional<std::size_t> skip_value(std::string_view text, std::size_t pos);

// `pos` at the first key of an object's remaining members (just after '{' or ','): the raw
// text of the value of member `name`, searching this object level only.
std::optional<std::string_view> find_member(std::string_view text, std::size_t pos,
                                            std::string_view name);

}  // namespace spotcheck::records::json_scan
