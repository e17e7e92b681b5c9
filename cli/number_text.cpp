#include "cli/number_text.h"

#include <charconv>
#include <cmath>

#include "cli/commands.h"
#include "impl/json_guard/json_guard.h"

namespace spotcheck::cli {

namespace {

constexpr std::size_t kValueShownBytesMax = 40;

bool all_digits(std::string_view part) {
  for (const char c : part) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::uint64_t> plain_decimal(std::string_view text) {
  if (text.empty() || !all_digits(text) || (text.size() > 1 && text.front() == '0')) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;  // past 2^64 - 1
  }
  return value;
}

std::optional<double> plain_seconds(std::string_view text) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  constexpr std::size_t kDigitsMax = 12;
  constexpr std::size_t kFractionDigitsMax = 6;  // microseconds: a run's clock resolution
  if (whole.empty() || whole.size() > kDigitsMax || !all_digits(whole) || (whole.size() > 1 && whole.front() == '0')) {
    return std::nullopt;
  }
  if (dot != std::string_view::npos && (fraction.empty() || fraction.size() > kFractionDigitsMax || !all_digits(fraction))) {
    return std::nullopt;
  }
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::uint64_t parse_decimal(const std::string& flag, const std::string& text, std::uint64_t min, std::uint64_t max) {
  const std::string range = std::to_string(min) + " to " + std::to_string(max);
  const auto bad = [&](const std::string& why) {
    return UsageError(flag + " must be a plain decimal number from " + range + " (got '" + json_guard::one_line(text, kValueShownBytesMax) + "'" +
                      (why.empty() ? "" : ": " + why) + ")");
  };
  if (text.empty()) {
    throw bad("empty");
  }
  if (!all_digits(text)) {
    throw bad("");
  }
  if (text.size() > 1 && text.front() == '0') {
    throw bad("no leading zeros");
  }
  const std::optional<std::uint64_t> parsed = plain_decimal(text);
  if (!parsed.has_value() || *parsed > max) {
    throw bad("too large");
  }
  const std::uint64_t value = *parsed;
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
