#include "impl/location/lease/owner_id.h"

#include <array>
#include <cstdint>

#include "impl/bytes/hex.h"
#include "impl/check/check.h"

namespace spotcheck::location {

std::string new_owner_id(platform::Random& random) {
  std::array<std::uint8_t, 16> bytes{};
  const std::uint64_t high = random.next_u64();
  const std::uint64_t low = random.next_u64();
  for (std::size_t i = 0; i < 8; ++i) {
    bytes[i] = static_cast<std::uint8_t>(high >> (56 - 8 * i));
    bytes[8 + i] = static_cast<std::uint8_t>(low >> (56 - 8 * i));
  }
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0fU) | 0x40U);  // version 4
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3fU) | 0x80U);  // variant 10xx
  std::string text;
  text.reserve(36);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) {
      text.push_back('-');
    }
    ::spotcheck::bytes::append_hex_byte(text, bytes[i]);
  }
  SPOTCHECK_ASSERT(is_uuid_v4(text));
  return text;
}

bool is_uuid_v4(std::string_view text) {
  if (text.size() != 36) {
    return false;
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') {
        return false;
      }
      continue;
    }
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!hex) {
      return false;
    }
  }
  if (text[14] != '4') {
    return false;
  }
  const char variant = text[19];
  return variant == '8' || variant == '9' || variant == 'a' || variant == 'b';
}

}  // namespace spotcheck::location
