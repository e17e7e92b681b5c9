#include "impl/location/messaging/operation_id.h"

#include "impl/bytes/hex.h"
#include "impl/check/check.h"

namespace spotcheck::location::messaging {

namespace {

std::optional<std::uint64_t> parse_hex64(std::string_view hex) {
  if (hex.empty() || hex.size() > 16) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  for (const char c : hex) {
    const int digit = bytes::hex_value(c);
    if (digit < 0 || (c >= 'A' && c <= 'F')) {  // lowercase only: one spelling per id
      return std::nullopt;
    }
    value = (value << 4) | static_cast<std::uint64_t>(digit);
  }
  return value;
}

}  // namespace

OperationId OperationId::random(platform::Random& random) {
  OperationId id;
  for (int attempt = 0; attempt < 4 && id.empty(); ++attempt) {
    id.high = random.next_u64();
    id.low = random.next_u64();
  }
  SPOTCHECK_ASSERT(!id.empty());
  return id;
}

std::string OperationId::hex() const {
  std::string out;
  out.reserve(32);
  bytes::append_hex64(out, high);
  bytes::append_hex64(out, low);
  SPOTCHECK_ASSERT(out.size() == 32);
  return out;
}

std::optional<OperationId> OperationId::parse(std::string_view hex) {
  if (hex.size() != 32) {
    return std::nullopt;
  }
  const auto high = parse_hex64(hex.substr(0, 16));
  const auto low = parse_hex64(hex.substr(16));
  if (!high.has_value() || !low.has_value()) {
    return std::nullopt;
  }
  return OperationId{*high, *low};
}

std::string routing_id_hex(std::uint64_t routing_id) {
  std::string out;
  out.reserve(16);
  bytes::append_hex64(out, routing_id);
  return out;
}

std::optional<std::uint64_t> parse_routing_id_hex(std::string_view hex) { return parse_hex64(hex); }

}  // namespace spotcheck::location::messaging
