// An authority row as read (spec §6.1): Missing(StoreNow) or Found(record, StoreVersion, StoreNow).
#pragma once

#include <optional>
#include <string>

#include "impl/records/authority_record.h"
#include "impl/records/keys.h"
#include "impl/store/spi/types.h"

namespace spotcheck::location {

// The authority key: (actor | spot, global ActorId/SpotId). One Id has one row per kind (§3.4).
struct AuthorityKey {
  records::AuthorityKind kind = records::AuthorityKind::kActor;
  std::string id;

  store::Key store_key() const { return records::authority_preimage(kind, id); }
  friend bool operator==(const AuthorityKey&, const AuthorityKey&) = default;
};

// A Found authority row: the decoded record, the exact stored bytes and their StoreVersion.
struct AuthoritySnapshot {
  AuthorityKey key;
  records::AuthorityRecord record;
  store::StoreVersion version;
  store::Bytes bytes;
};

struct AuthorityRead {
  std::optional<AuthoritySnapshot> current;  // nullopt: Missing — no generation is created
  store::StoreNowMs now_ms = 0;
};

// Parses "authority\0{actor|spot}\0{Id}" back into a key; nullopt for any other key.
std::optional<AuthorityKey> parse_authority_key(const store::Key& key);

}  // namespace spotcheck::location
