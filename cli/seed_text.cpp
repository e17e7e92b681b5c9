#include "cli/seed_text.h"

#include <charconv>

#include "cli/commands.h"

namespace spotcheck::cli {

namespace {

std::string shown(const std::string& text) {
  std::string out;
  for (const char c : text.substr(0, 40)) {
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  }
  return text.size() > 40 ? out + "..." : out;
}

}  // namespace

std::uint64_t parse_decimal(const std::string& flag, const std::string& text, std::uint64_t min, std::uint64_t max) {
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  const auto bad = [&](const std::string& why) {
    return UsageError(flag + " must be a plain decimal number from " + range + " (got '" + shown(text) + "'" +
                      (why.empty() ? "" : ": " + why) + ")");
  };
  if (text.empty()) {
    throw bad("empty");
  }
  for (const char c : text) {
    if (c < '0' || c > '9') {
      throw bad("");
    }
  }
  if (text.size() > 1 && text.front() == '0') {
    throw bad("no leading zeros");
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range || value > max) {
    throw bad("too large");
  }
  if (error != std::errc() || end != text.data() + text.size()) {
    throw bad("");
  }
  if (value < min) {
    throw bad("too small");
  }
  return value;
}

void check_seed_range(std::uint64_t first, std::uint64_t count) {
  if (count == 0) {
    throw UsageError("--seeds must be at least 1");
  }
  if (first > UINT64_MAX - (count - 1)) {
    throw UsageError("--seed " + std::to_string(first) + " with --seeds " + std::to_string(count) +
                     " runs past the last seed, 18446744073709551615");
  }
}

}  // namespace spotcheck::cli
