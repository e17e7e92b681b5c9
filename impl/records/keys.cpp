#include "impl/records/keys.h"

#include <initializer_list>

#include "impl/check/check.h"

namespace spotcheck::records {
namespace {

constexpr std::string_view kRecordSegment = "rec:";

// Joins the segments with one \0 byte between them (no length prefixes, spec §3.4).
std::string join_preimage(std::initializer_list<std::string_view> segments) {
  std::size_t size_bytes = 0;
  for (std::string_view segment : segments) {
    size_bytes += segment.size() + 1;
  }
  std::string preimage;
  preimage.reserve(size_bytes);
  bool first = true;
  for (std::string_view segment : segments) {
    if (!first) {
      preimage.push_back('\0');
    }
    first = false;
    preimage.append(segment);
  }
  SPOTCHECK_ASSERT(preimage.size() + 1 == size_bytes);
  return preimage;
}

}  // namespace

std::string mesh_node_preimage(std::string_view mesh_name, std::string_view routing_id_hex) {
  return join_preimage({"mesh-node", mesh_name, routing_id_hex});
}

std::string owner_lease_preimage(std::string_view owner_id) {
  return join_preimage({"owner-lease", owner_id});
}

std::string client_server_preimage(std::string_view channel_name,
                                   std::string_view routing_id_hex) {
  return join_preimage({"client-server", channel_name, routing_id_hex});
}

std::string fanout_publisher_preimage(std::string_view channel_name,
                                      std::string_view routing_id_hex) {
  return join_preimage({"fanout-publisher", channel_name, routing_id_hex});
}

std::string_view to_string(AuthorityKind kind) {
  return kind == AuthorityKind::kActor ? "actor" : "spot";
}

std::string authority_preimage(AuthorityKind kind, std::string_view id) {
  return join_preimage({"authority", to_string(kind), id});
}

std::string redis_key(std::string_view preimage, std::string_view ns) {
  std::string key;
  key.reserve(ns.size() + kRecordSegment.size() + 64);
  key.append(ns);
  key.append(kRecordSegment);
  key.append(sha256_hex(preimage));
  SPOTCHECK_ASSERT(key.size() == ns.size() + kRecordSegment.size() + 64);
  return key;
}

}  // namespace spotcheck::records
