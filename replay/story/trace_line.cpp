#include "replay/story/trace_line.h"

#include <charconv>

namespace spotcheck::replay {

namespace {

// Splits off the next space-separated word of `rest`.
std::string_view next_word(std::string_view& rest) {
  const std::size_t end = rest.find(' ');
  const std::string_view word = rest.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
  return word;
}

template <class T>
std::optional<T> to_number(std::string_view text) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// Where the value of `key` starts in `fields` (a key starts the fields or follows a space).
std::optional<std::size_t> value_start(std::string_view fields, std::string_view key) {
  const std::string needle = std::string(key) + "=";
  for (std::size_t at = fields.find(needle); at != std::string_view::npos; at = fields.find(needle, at + 1)) {
    if (at == 0 || fields[at - 1] == ' ') {
      return at + needle.size();
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<TraceLine> parse_trace_line(std::string_view line) {
  TraceLine out;
  std::string_view rest = line;
  const std::string_view index = next_word(rest);
  const std::string_view time = next_word(rest);
  if (index.size() < 2 || index[0] != '#' || time.size() < 5 || !time.starts_with("t=") || !time.ends_with("us")) {
    return std::nullopt;
  }
  const auto index_value = to_number<std::uint64_t>(index.substr(1));
  const auto time_value = to_number<std::int64_t>(time.substr(2, time.size() - 4));
  if (!index_value || !time_value) {
    return std::nullopt;
  }
  out.index = *index_value;
  out.time_us = *time_value;
  out.node = std::string(next_word(rest));
  std::string_view kind = next_word(rest);
  if (kind.starts_with("task=")) {
    out.task = to_number<std::uint64_t>(kind.substr(5));
    kind = next_word(rest);
  }
  if (out.node.empty() || kind.empty()) {
    return std::nullopt;
  }
  out.kind = std::string(kind);
  out.fields = std::string(rest);
  return out;
}

std::optional<std::int64_t> number_field(const TraceLine& line, std::string_view key) {
  const auto start = value_start(line.fields, key);
  if (!start) {
    return std::nullopt;
  }
  std::string_view value = std::string_view(line.fields).substr(*start);
  value = value.substr(0, value.find(' '));
  return to_number<std::int64_t>(value);
}

std::optional<std::string> text_field(const TraceLine& line, std::string_view key) {
  const auto start = value_start(line.fields, key);
  if (!start || *start >= line.fields.size() || line.fields[*start] != '"') {
    return std::nullopt;
  }
  std::string out;
  for (std::size_t i = *start + 1; i < line.fields.size(); ++i) {
    const char c = line.fields[i];
    if (c == '\\' && i + 1 < line.fields.size()) {
      out.push_back(c);
      out.push_back(line.fields[++i]);
    } else if (c == '"') {
      return out;
    } else {
      out.push_back(c);
    }
  }
  return std::nullopt;  // unterminated
}

}  // namespace spotcheck::replay
