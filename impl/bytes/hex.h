// Hexadecimal text of bytes: the one encoder and digit decoder of impl/ (record keys, OwnerIds,
// OperationIds, Redis key layout, URL percent-encoding, JSON escapes).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spotcheck::bytes {

inline constexpr std::string_view kHexLower = "0123456789abcdef";
inline constexpr std::string_view kHexUpper = "0123456789ABCDEF";

// The digit of a nibble (0..15), lowercase unless `upper`.
constexpr char hex_digit(unsigned nibble, bool upper = false) {
  return (upper ? kHexUpper : kHexLower)[nibble & 0x0fU];
}

// The value of one hex digit (either case), or -1 for anything else.
constexpr int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

// Appends the two lowercase (or uppercase) digits of one byte.
inline void append_hex_byte(std::string& out, unsigned char byte, bool upper = false) {
  out.push_back(hex_digit(byte >> 4U, upper));
  out.push_back(hex_digit(byte, upper));
}

// Lowercase hex of `bytes`, two digits per byte.
std::string to_hex(std::string_view bytes);

// The 16 lowercase digits of a 64-bit value, most significant first.
void append_hex64(std::string& out, std::uint64_t value);

}  // namespace spotcheck::bytes
