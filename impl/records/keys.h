// Logical key preimages and Redis keys of the public records (spec §3.4).
//
// A preimage is UTF-8 text whose segments are separated by one \0 byte, without length prefixes.
// Preconditions (checked by validate.h, not here): names and ids are valid identity text (no NUL),
// routing ids are lowercase hex. The functions only concatenate.
#pragma once

#include <string>
#include <string_view>

#include "impl/bytes/hex.h"
#include "impl/bytes/sha256.h"

namespace spotcheck::records {

inline constexpr std::string_view kDefaultNamespace = "zlink:v11:";

// "mesh-node\0{MeshName}\0{hex(RoutingId)}"
std::string mesh_node_preimage(std::string_view mesh_name, std::string_view routing_id_hex);
// "owner-lease\0{OwnerId}"
std::string owner_lease_preimage(std::string_view owner_id);
// "client-server\0{ChannelName}\0{hex(RoutingId)}"
std::string client_server_preimage(std::string_view channel_name,
                                   std::string_view routing_id_hex);
// "fanout-publisher\0{ChannelName}\0{hex(RoutingId)}"
std::string fanout_publisher_preimage(std::string_view channel_name,
                                      std::string_view routing_id_hex);

// The authority segment names the object kind: every Spot kind (Entry | User | Instance) is
// "spot", so one Id has exactly one authority row per kind.
enum class AuthorityKind { kActor, kSpot };
std::string_view to_string(AuthorityKind kind);  // "actor" | "spot"
// "authority\0{actor|spot}\0{Id}"
std::string authority_preimage(AuthorityKind kind, std::string_view id);

// Lowercase hex SHA-256 of arbitrary bytes (64 characters) and lowercase hex of arbitrary bytes
// (e.g. to print a preimage): impl/bytes, the one copy of each.
using bytes::sha256_hex;
using bytes::to_hex;

// namespace + "rec:" + sha256_hex(preimage), e.g. "zlink:v11:rec:644fc5...".
std::string redis_key(std::string_view preimage, std::string_view ns = kDefaultNamespace);

}  // namespace spotcheck::records
