#include "impl/records/json_scan.h"

#include "impl/check/check.h"

namespace spotcheck::records::json_scan {
namespace {

bool is_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::size_t skip_whitespace(std::string_view text, std::size_t pos) {
  while (pos < text.size() && is_whitespace(text[pos])) {
    ++pos;
  }
  return pos;
}

std::optional<std::size_t> skip_string(std::string_view text, std::size_t pos,
                                       std::string_view* raw) {
  if (pos >= text.size() || text[pos] != '"') {
    return std::nullopt;
  }
  const std::size_t start = pos + 1;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;  // skip the escaped character (a \uXXXX tail is plain characters)
      continue;
    }
    if (text[i] == '"') {
      if (raw != nullptr) {
        *raw = text.substr(start, i - start);
      }
      return i + 1;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> skip_value(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) {
    return std::nullopt;
  }
  const char first = text[pos];
  if (first == '"') {
    return skip_string(text, pos, nullptr);
  }
  if (first == '{' || first == '[') {
    std::size_t depth = 0;
    std::size_t i = pos;
    while (i < text.size()) {  // bounded: i strictly increases
      const char c = text[i];
      if (c == '"') {
        const auto after = skip_string(text, i, nullptr);
        if (!after) {
          return std::nullopt;
        }
        i = *after;
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        SPOTCHECK_ASSERT(depth > 0);
        --depth;
        if (depth == 0) {
          return i + 1;
        }
      }
      ++i;
    }
    return std::nullopt;
  }
  // A number or literal: up to the next structural character or whitespace.
  std::size_t i = pos;
  while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']' &&
         !is_whitespace(text[i])) {
    ++i;
  }
  if (i == pos) {
    return std::nullopt;
  }
  return i;
}

std::optional<std::string_view> find_member(std::string_view text, std::size_t pos,
                                            std::string_view name) {
  // Each round consumes at least one key, so text.size() rounds bound the loop.
  for (std::size_t round = 0; round <= text.size(); ++round) {
    pos = skip_whitespace(text, pos);
    std::string_view key;
    const auto after_key = skip_string(text, pos, &key);
    if (!after_key) {
      return std::nullopt;
    }
    pos = skip_whitespace(text, *after_key);
    if (pos >= text.size() || text[pos] != ':') {
      return std::nullopt;
    }
    pos = skip_whitespace(text, pos + 1);
    const auto after_value = skip_value(text, pos);
    if (!after_value) {
      return std::nullopt;
    }
    if (key == name) {
      return text.substr(pos, *after_value - pos);
    }
    pos = skip_whitespace(text, *after_value);
    if (pos >= text.size() || text[pos] != ',') {
      return std::nullopt;
    }
    ++pos;
  }
  return std::nullopt;
}

}  // namespace spotcheck::records::json_scan
