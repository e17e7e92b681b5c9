#include "impl/store/memory/scan_token.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <cstring>

#include "impl/check/check.h"

namespace spotcheck::store::memory {

namespace {

constexpr char kMagic[4] = {'m', 's', 'c', '1'};
constexpr std::size_t kHeaderBytes = sizeof(kMagic) + 8 + 2;

static_assert(ScanTokenCodec::kMaxTokenBytes <= kMaxContinuationBytes);

void append_u64(Bytes& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((value >> shift) & 0xffU));
  }
}

std::uint64_t read_u64(const Bytes& in, std::size_t offset) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    value = (value << 8) | static_cast<unsigned char>(in[offset + i]);
  }
  return value;
}

void append_length_prefixed(Bytes& out, const Key& key) {
  append_u64(out, key.size());
  out.append(key);
}

}  // namespace

ScanTokenCodec::ScanTokenCodec(std::uint64_t key_seed) {
  Bytes seed = "spotcheck memory store continuation key ";
  append_u64(seed, key_seed);
  SHA256(reinterpret_cast<const unsigned char*>(seed.data()), seed.size(), _mac_key.data());
}

std::array<unsigned char, ScanTokenCodec::kMacBytes> ScanTokenCodec::mac(const Bytes& body, const Key& start,
                                                                          const Key& end) const {
  Bytes message;
  message.reserve(body.size() + start.size() + end.size() + 16);
  message.append(body);
  append_length_prefixed(message, start);
  append_length_prefixed(message, end);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_bytes = 0;
  const unsigned char* result =
      HMAC(EVP_sha256(), _mac_key.data(), static_cast<int>(_mac_key.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &digest_bytes);
  SPOTCHECK_ASSERT_ABORT(result != nullptr);
  SPOTCHECK_ASSERT_ABORT(digest_bytes >= kMacBytes);
  std::array<unsigned char, kMacBytes> truncated{};
  std::memcpy(truncated.data(), digest, kMacBytes);
  return truncated;
}

Bytes ScanTokenCodec::encode(const ScanPosition& position, const Key& start, const Key& end) const {
  SPOTCHECK_ASSERT_ABORT(!position.last_key.empty());
  SPOTCHECK_ASSERT_ABORT(position.last_key.size() <= kMaxKeyBytes);
  Bytes token(kMagic, sizeof(kMagic));
  append_u64(token, position.scan_id);
  token.push_back(static_cast<char>((position.last_key.size() >> 8) & 0xffU));
  token.push_back(static_cast<char>(position.last_key.size() & 0xffU));
  token.append(position.last_key);
  const auto tag = mac(token, start, end);
  token.append(reinterpret_cast<const char*>(tag.data()), tag.size());
  SPOTCHECK_ASSERT_ABORT(token.size() <= kMaxTokenBytes);
  return token;
}

std::optional<ScanPosition> ScanTokenCodec::decode(const Bytes& token, const Key& start, const Key& end) const {
  if (token.size() < kHeaderBytes + 1 + kMacBytes || token.size() > kMaxTokenBytes) {
    return std::nullopt;
  }
  if (std::memcmp(token.data(), kMagic, sizeof(kMagic)) != 0) {
    return std::nullopt;
  }
  const std::size_t key_bytes = (static_cast<std::size_t>(static_cast<unsigned char>(token[12])) << 8) |
                                static_cast<unsigned char>(token[13]);
  if (key_bytes == 0 || kHeaderBytes + key_bytes + kMacBytes != token.size()) {
    return std::nullopt;
  }
  const Bytes body = token.substr(0, kHeaderBytes + key_bytes);
  const auto expected = mac(body, start, end);
  // Constant-time comparison is not needed here (no secrets cross a trust boundary), but
  // CRYPTO_memcmp costs nothing.
  if (CRYPTO_memcmp(expected.data(), token.data() + body.size(), kMacBytes) != 0) {
    return std::nullopt;
  }
  ScanPosition position;
  position.scan_id = read_u64(token, sizeof(kMagic));
  position.last_key = token.substr(kHeaderBytes, key_bytes);
  return position;
}

}  // namespace spotcheck::store::memory
