// Numbers on the command line are plain decimal and in range: digits only, no sign, no leading
// zero (which some tools read as octal), no exponent or hex, nothing past the type. Anything else
// is refused with one line that shows the value (json_guard::one_line: control characters
// escaped). Every subcommand
// parses its numbers here: run, replay, shrink, redis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spotcheck::cli {

// The value of a plain decimal number that fits 64 bits; nullopt for anything else.
std::optional<std::uint64_t> plain_decimal(std::string_view text);
// Plain decimal seconds with an optional fraction of at most 6 digits ("5", "0.5", "2.25", a
// microsecond at the finest); nullopt for anything else ("5.", ".5", "1e3", "nan").
std::optional<double> plain_seconds(std::string_view text);
// `flag` names the option in the error ("--seed"). Throws UsageError.
std::uint64_t parse_decimal(const std::string& flag, const std::string& text, std::uint64_t min, std::uint64_t max);

inline std::uint64_t parse_seed(const std::string& flag, const std::string& text) {
  return parse_decimal(flag, text, 0, UINT64_MAX);
}

// A range of `count` seeds from `first`: at least one, and the last one at most 2^64 - 1.
void check_seed_range(std::uint64_t first, std::uint64_t count);

}  // namespace spotcheck::cli
