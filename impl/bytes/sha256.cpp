#include "impl/bytes/sha256.h"

#include <array>
#include <cstdlib>
#include <memory>

#include <openssl/evp.h>

#include "impl/bytes/hex.h"

namespace spotcheck::bytes {

std::string sha256_hex(std::string_view bytes) {
  // OpenSSL 3's one-shot SHA256()/EVP_Digest fetch the algorithm on every call (locks, lookups):
  // fetch it once and reuse one context per thread.
  struct MdFree {
    void operator()(EVP_MD* md) const { EVP_MD_free(md); }
  };
  struct CtxFree {
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
  };
  static const std::unique_ptr<EVP_MD, MdFree> sha256(EVP_MD_fetch(nullptr, "SHA256", nullptr));
  thread_local const std::unique_ptr<EVP_MD_CTX, CtxFree> ctx(EVP_MD_CTX_new());
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int digest_bytes = 0;
  const bool ok = sha256 != nullptr && ctx != nullptr && EVP_DigestInit_ex2(ctx.get(), sha256.get(), nullptr) == 1 &&
                  EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) == 1 &&
                  EVP_DigestFinal_ex(ctx.get(), digest.data(), &digest_bytes) == 1;
  if (!ok || digest_bytes != kSha256HexChars / 2) {
    std::abort();  // no SHA-256 means no key can be named; nothing sensible to return
  }
  return to_hex(std::string_view(reinterpret_cast<const char*>(digest.data()), digest_bytes));
}

}  // namespace spotcheck::bytes
