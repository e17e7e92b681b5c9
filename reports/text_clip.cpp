#include "reports/text_clip.h"

namespace spotcheck::reports {

namespace {

constexpr std::string_view kEllipsis = "\xe2\x80\xa6";  // …

bool continues_character(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// The byte length of the first `chars` characters of `text` (all of it when shorter).
std::size_t bytes_of_chars(std::string_view text, std::size_t chars) {
  std::size_t at = 0;
  for (std::size_t n = 0; n < chars && at < text.size(); ++n) {
    ++at;
    while (at < text.size() && continues_character(text[at])) {
      ++at;
    }
  }
  return at;
}

std::size_t chars_in(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) {
    n += continues_character(c) ? 0 : 1;
  }
  return n;
}

}  // namespace

std::string clip_text(std::string_view text, std::size_t chars_max) {
  if (chars_in(text) <= chars_max) {
    return std::string(text);
  }
  if (chars_max == 0) {
    return {};
  }
  return std::string(text.substr(0, bytes_of_chars(text, chars_max - 1))) + std::string(kEllipsis);
}

std::vector<std::string> wrap_text(std::string_view text, std::size_t chars_max, std::size_t lines_max) {
  std::vector<std::string> lines;
  if (chars_max == 0 || lines_max == 0) {
    return lines;
  }
  while (!text.empty() && lines.size() < lines_max) {
    std::size_t cut = bytes_of_chars(text, chars_max);
    if (cut < text.size()) {
      const std::size_t space = text.substr(0, cut + 1).rfind(' ');
      cut = space == std::string_view::npos || space == 0 ? cut : space;
    }
    lines.emplace_back(text.substr(0, cut));
    text = text.substr(cut);
    while (!text.empty() && text.front() == ' ') {
      text.remove_prefix(1);
    }
  }
  if (!text.empty()) {
    lines.back() = clip_text(lines.back() + " " + std::string(text), chars_max);
  }
  return lines;
}

}  // namespace spotcheck::reports
