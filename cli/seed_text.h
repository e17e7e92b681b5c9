// Seeds on the command line are plain decimal numbers in range: no sign, no leading zero (which
// some tools read as octal), no exponent, nothing past 2^64 - 1. Anything else is a UsageError.
#pragma once

#include <cstdint>
#include <string>

namespace spotcheck::cli {

// `flag` names the option in the error ("--seed").
std::uint64_t parse_decimal(const std::string& flag, const std::string& text, std::uint64_t min, std::uint64_t max);

inline std::uint64_t parse_seed(const std::string& flag, const std::string& text) {
  return parse_decimal(flag, text, 0, UINT64_MAX);
}

// A range of `count` seeds from `first`: at least one, and the last one at most 2^64 - 1.
void check_seed_range(std::uint64_t first, std::uint64_t count);

}  // namespace spotcheck::cli
