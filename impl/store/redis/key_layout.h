// Redis key layout of the Redis Location/Relocation Store provider (docs/redis.md, "Key layout").
// Every key the provider touches starts with its namespace. Public records live at
// namespace + "rec:" + sha256hex(logical key) (spec §3.4); the rest is provider-private.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/bytes/hex.h"
#include "impl/bytes/sha256.h"
#include "impl/store/spi/types.h"

namespace spotcheck::store::redis {

inline constexpr std::string_view kDefaultNamespace = "zlink:v11:";
inline constexpr std::size_t kSha256HexBytes = bytes::kSha256HexChars;

// Lowercase hex SHA-256 and lowercase hex of bytes: impl/bytes, the one copy of each.
using bytes::sha256_hex;
inline std::string hex_encode(std::string_view raw) { return bytes::to_hex(raw); }

// Hash {v: value bytes, ver: decimal StoreVersion} of the current version of a logical key.
std::string record_key(std::string_view key_namespace, const Key& key);
// String holding a Relocation Store payload's raw bytes.
std::string relocation_key(std::string_view key_namespace, const Key& reference);
// The namespace-wide version sequence: every Location Store script names it in KEYS, so a
// Redis Cluster routes the call to the node holding the namespace's slot.
std::string sequence_key(std::string_view key_namespace);
// Marks the namespace as this provider's (safety check at open).
std::string marker_key(std::string_view key_namespace);
// Random secret that keys the scan continuation MAC, shared by every client of the namespace.
std::string scan_secret_key(std::string_view key_namespace);

// Member of the lexicographic key index (ZSET, score 0): escape(key) + "\0\1" + sha256hex(key),
// where escape() writes each zero byte as "\0\xff". Member order equals logical key byte order,
// and the member's last 64 bytes name the record key.
std::string index_member(const Key& key);
// The same, with sha256_hex(key) already computed.
std::string index_member(const Key& key, std::string_view key_sha);
// The logical key of an index member; nullopt when the member is not one this provider wrote.
std::optional<Key> key_of_index_member(std::string_view member);
// The order-preserving prefix-free encoding escape(key) + "\0\1" used for range bounds.
std::string index_bound(const Key& key);

// Whether `key` is a name the provider's layout gives out under `key_namespace`: the marker, the
// scan secret, the namespace-wide structures (provider_shared_keys) or a rec:/hist:/old:/reloc:
// key. A key that is not is never written by the provider.
bool is_provider_key(std::string_view key_namespace, std::string_view key);
// The namespace-wide structures the scripts write (the key index, sequences, open scans, the old
// versions' queue): idx, seq, scans, scansnap, gcq, scanseq.
std::vector<std::string> provider_shared_keys(std::string_view key_namespace);

// The hash tag Redis Cluster hashes for every key under `key_namespace`: the text between the
// namespace's first '{' and the first '}' after it, when both are in the namespace and the text
// is not empty (key suffixes never hold braces). Empty: no tag, the keys spread over slots.
std::string_view namespace_hash_tag(std::string_view key_namespace);

// `text` with the glob specials * ? [ ] \ escaped, for SCAN MATCH.
std::string glob_escape(std::string_view text);

}  // namespace spotcheck::store::redis
