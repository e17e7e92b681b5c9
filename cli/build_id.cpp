#include "cli/build_id.h"

#include <openssl/evp.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "spotcheck_build_commit.h"  // generated: cmake/WriteBuildCommit.cmake

namespace spotcheck::cli {

namespace {

std::string sha256_of_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!in || ctx == nullptr || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return "unknown";
  }
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    if (EVP_DigestUpdate(ctx.get(), chunk, static_cast<std::size_t>(in.gcount())) != 1) {
      return "unknown";
    }
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (!in.eof() || EVP_DigestFinal_ex(ctx.get(), digest, &size) != 1) {
    return "unknown";
  }
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", digest[i]);
    hex += two;
  }
  return hex;
}

}  // namespace

const replay::BuildId& this_build() {
  static const replay::BuildId build{SPOTCHECK_GIT_COMMIT, sha256_of_file("/proc/self/exe")};
  return build;
}

}  // namespace spotcheck::cli
