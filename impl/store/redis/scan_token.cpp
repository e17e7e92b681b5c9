#include "impl/store/redis/scan_token.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>

#include "impl/check/check.h"

namespace spotcheck::store::redis {

namespace {

constexpr char kMagic = 'S';
constexpr char kFormat = 1;
constexpr std::size_t kMacBytes = 16;
constexpr std::size_t kHeaderBytes = 1 + 1 + 8 + 8 + 2;

void put_u64(Bytes& out, std::uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((v >> static_cast<unsigned>(shift)) & 0xffU));
  }
}

std::uint64_t get_u64(std::string_view in) {
  SPOTCHECK_ASSERT(in.size() >= 8);
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    v = (v << 8U) | static_cast<unsigned char>(in[i]);
  }
  return v;
}

void put_framed(Bytes& out, std::string_view part) {
  put_u64(out, part.size());
  out.append(part);
}

std::array<unsigned char, EVP_MAX_MD_SIZE> mac_of(std::string_view body, std::string_view secret,
                                                  const ScanBinding& binding) {
  Bytes input = "spotcheck-redis-scan";
  put_framed(input, binding.key_namespace);
  put_framed(input, binding.start);
  put_framed(input, binding.end);
  put_framed(input, body);
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int mac_len = 0;
  const unsigned char* ok = HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
                                 reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac.data(), &mac_len);
  SPOTCHECK_ASSERT(ok != nullptr);
  SPOTCHECK_ASSERT(mac_len >= kMacBytes);
  (void)ok;
  return mac;
}

}  // namespace

Bytes encode_continuation(const ScanCursor& cursor, std::string_view secret, const ScanBinding& binding) {
  SPOTCHECK_ASSERT(!secret.empty());
  SPOTCHECK_ASSERT(cursor.last_key.size() <= kMaxKeyBytes);
  Bytes token;
  token.reserve(kHeaderBytes + cursor.last_key.size() + kMacBytes);
  token.push_back(kMagic);
  token.push_back(kFormat);
  put_u64(token, cursor.scan_id);
  put_u64(token, cursor.snapshot);
  token.push_back(static_cast<char>((cursor.last_key.size() >> 8U) & 0xffU));
  token.push_back(static_cast<char>(cursor.last_key.size() & 0xffU));
  token.append(cursor.last_key);
  const auto mac = mac_of(token, secret, binding);
  token.append(reinterpret_cast<const char*>(mac.data()), kMacBytes);
  SPOTCHECK_ASSERT(token.size() <= kMaxContinuationBytes);
  return token;
}

std::optional<ScanCursor> decode_continuation(std::string_view token, std::string_view secret,
                                              const ScanBinding& binding) {
  if (secret.empty() || token.size() < kHeaderBytes + kMacBytes || token.size() > kMaxContinuationBytes) {
    return std::nullopt;
  }
  const std::string_view body = token.substr(0, token.size() - kMacBytes);
  const std::string_view mac = token.substr(token.size() - kMacBytes);
  const auto expected = mac_of(body, secret, binding);
  if (CRYPTO_memcmp(expected.data(), mac.data(), kMacBytes) != 0) {
    return std::nullopt;
  }
  if (body[0] != kMagic || body[1] != kFormat) {
    return std::nullopt;
  }
  const std::size_t key_len =
      (static_cast<std::size_t>(static_cast<unsigned char>(body[18])) << 8U) | static_cast<unsigned char>(body[19]);
  if (body.size() != kHeaderBytes + key_len || key_len == 0 || key_len > kMaxKeyBytes) {
    return std::nullopt;
  }
  ScanCursor cursor;
  cursor.scan_id = get_u64(body.substr(2));
  cursor.snapshot = get_u64(body.substr(10));
  cursor.last_key = Key(body.substr(kHeaderBytes));
  return cursor;
}

}  // namespace spotcheck::store::redis
