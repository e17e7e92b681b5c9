#include "impl/store/redis/key_layout.h"

#include <array>

#include "impl/check/check.h"

namespace spotcheck::store::redis {

namespace {

constexpr char kEscapedZero = '\xff';
constexpr std::string_view kTerminator{"\0\1", 2};
// Keep in step with lua/common.lua and scan.lua (docs/redis.md, "Key layout").
constexpr std::array<std::string_view, 6> kSharedNames = {"idx", "seq", "scans", "scansnap", "gcq", "scanseq"};
constexpr std::array<std::string_view, 4> kPrefixes = {"rec:", "hist:", "old:", "reloc:"};

}  // namespace

std::string record_key(std::string_view key_namespace, const Key& key) {
  SPOTCHECK_ASSERT(!key_namespace.empty());
  return std::string(key_namespace) + "rec:" + sha256_hex(key);
}

std::string relocation_key(std::string_view key_namespace, const Key& reference) {
  SPOTCHECK_ASSERT(!key_namespace.empty());
  return std::string(key_namespace) + "reloc:" + sha256_hex(reference);
}

std::string sequence_key(std::string_view key_namespace) { return std::string(key_namespace) + "seq"; }

std::string marker_key(std::string_view key_namespace) { return std::string(key_namespace) + "provider"; }

std::string scan_secret_key(std::string_view key_namespace) {
  return std::string(key_namespace) + "scan-secret";
}

std::string index_bound(const Key& key) {
  std::string out;
  out.reserve(key.size() + kTerminator.size() + 8);
  for (const char c : key) {
    out.push_back(c);
    if (c == '\0') {
      out.push_back(kEscapedZero);
    }
  }
  out.append(kTerminator);
  return out;
}

std::string index_member(const Key& key) { return index_member(key, sha256_hex(key)); }

std::string index_member(const Key& key, std::string_view key_sha) {
  SPOTCHECK_ASSERT(key_sha.size() == kSha256HexBytes);
  std::string member = index_bound(key);
  member.append(key_sha);
  return member;
}

std::optional<Key> key_of_index_member(std::string_view member) {
  if (member.size() < kTerminator.size() + kSha256HexBytes) {
    return std::nullopt;
  }
  const std::string_view encoded = member.substr(0, member.size() - kSha256HexBytes);
  Key key;
  key.reserve(encoded.size());
  std::size_t i = 0;
  for (; i < encoded.size(); ++i) {
    const char c = encoded[i];
    if (c != '\0') {
      key.push_back(c);
      continue;
    }
    if (i + 1 >= encoded.size()) {
      return std::nullopt;
    }
    if (encoded[i + 1] == kEscapedZero) {
      key.push_back('\0');
      ++i;
      continue;
    }
    break;  // the terminator
  }
  if (encoded.substr(i) != kTerminator) {
    return std::nullopt;
  }
  if (member.substr(member.size() - kSha256HexBytes) != sha256_hex(key)) {
    return std::nullopt;
  }
  return key;
}

bool is_provider_key(std::string_view key_namespace, std::string_view key) {
  if (key.substr(0, key_namespace.size()) != key_namespace) {
    return false;
  }
  const std::string_view name = key.substr(key_namespace.size());
  if (name == "provider" || name == "scan-secret") {
    return true;
  }
  for (const std::string_view shared : kSharedNames) {
    if (name == shared) {
      return true;
    }
  }
  for (const std::string_view prefix : kPrefixes) {
    if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> provider_shared_keys(std::string_view key_namespace) {
  std::vector<std::string> out;
  out.reserve(kSharedNames.size());
  for (const std::string_view shared : kSharedNames) {
    out.push_back(std::string(key_namespace) + std::string(shared));
  }
  return out;
}

std::string_view namespace_hash_tag(std::string_view key_namespace) {
  const std::size_t open = key_namespace.find('{');
  if (open == std::string_view::npos) {
    return {};
  }
  const std::size_t close = key_namespace.find('}', open + 1);
  if (close == std::string_view::npos) {
    return {};
  }
  return key_namespace.substr(open + 1, close - open - 1);
}

std::string glob_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 4);
  for (const char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
      out.push_back('\\');
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace spotcheck::store::redis
