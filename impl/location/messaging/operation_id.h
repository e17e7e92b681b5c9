// The 128-bit OperationId of one Manager call (spec §7): with the source Node RID and the source
// host run generation it names the request whose final result the store keeps. Drawn from
// platform::Random, never from a clock or an address.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/platform/random.h"

namespace spotcheck::location::messaging {

struct OperationId {
  std::uint64_t high = 0;
  std::uint64_t low = 0;

  static OperationId random(platform::Random& random);
  // 32 lowercase hex characters.
  std::string hex() const;
  // Exactly 32 lowercase hex characters; nullopt otherwise.
  static std::optional<OperationId> parse(std::string_view hex);
  bool empty() const { return high == 0 && low == 0; }

  friend auto operator<=>(const OperationId&, const OperationId&) = default;
};

// RoutingId <-> the lowercase hex descriptors carry (§3.4 {hex(RoutingId)}): 16 digits, as the
// raw 8 bytes of a big-endian uint64. parse accepts 1..16 lowercase hex digits.
std::string routing_id_hex(std::uint64_t routing_id);
std::optional<std::uint64_t> parse_routing_id_hex(std::string_view hex);

}  // namespace spotcheck::location::messaging
