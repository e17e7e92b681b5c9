// The opaque continuation of an operational list page (spec §7.4, §12: at most 4,096 bytes). It
// names the list it belongs to (object kind, stable type, MeshName) and the last authority key the
// previous page returned, and carries a checksum: a token that is altered, truncated, or used
// with another filter is refused (kInvalidArgument) rather than read as some other position.
//
//   "lq1." hex(kind) "." hex(type) "." hex(mesh) "." hex(after) "." first 16 hex of SHA-256
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "impl/location/query/location_query.h"

namespace spotcheck::location::query {

inline constexpr std::size_t kContinuationBytesMax = 4'096;

std::string encode_continuation(const ListFilter& filter, std::string_view after_key);

struct DecodedContinuation {
  ListFilter filter;
  std::string after_key;
};
// nullopt: not a continuation this code wrote (malformed, altered, too long).
std::optional<DecodedContinuation> decode_continuation(std::string_view token);

}  // namespace spotcheck::location::query
