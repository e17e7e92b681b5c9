// SHA-256 as lowercase hex: the one digest of impl/ (record keys §3.4, Redis key layout, payload
// checksums). OpenSSL's EVP interface, the algorithm fetched once and one context per thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace spotcheck::bytes {

inline constexpr std::size_t kSha256HexChars = 64;

// 64 lowercase hex digits. Aborts only if OpenSSL cannot digest at all (out of memory).
std::string sha256_hex(std::string_view bytes);

}  // namespace spotcheck::bytes
