#include "impl/bytes/hex.h"

namespace spotcheck::bytes {

std::string to_hex(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    append_hex_byte(out, static_cast<unsigned char>(c));
  }
  return out;
}

void append_hex64(std::string& out, std::uint64_t value) {
  for (int shift = 60; shift >= 0; shift -= 4) {
    out.push_back(hex_digit(static_cast<unsigned>(value >> shift)));
  }
}

}  // namespace spotcheck::bytes
