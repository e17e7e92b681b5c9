#include "impl/location/messaging/operation_id.h"

#include "impl/location/check.h"

namespace spotcheck::location::messaging {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

void append_hex64(std::uint64_t value, std::string& out) {
  for (int shift = 60; shift >= 0; shift -= 4) {
    out.push_back(kHexDigits[(value >> shift) & 0x0fU]);
  }
}

std::optional<std::uint64_t> parse_hex64(std::string_view hex) {
  if (hex.empty() || hex.size() > 16) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  for (const char c : hex) {
    std::uint64_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<std::uint64_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<std::uint64_t>(c - 'a' + 10);
    } else {
      return std::nullopt;
    }
    value = (value << 4) | digit;
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
  LOCATION_ASSERT(!id.empty());
  return id;
}

std::string OperationId::hex() const {
  std::string out;
  out.reserve(32);
  append_hex64(high, out);
  append_hex64(low, out);
  LOCATION_ASSERT(out.size() == 32);
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
  append_hex64(routing_id, out);
  return out;
}

std::optional<std::uint64_t> parse_routing_id_hex(std::string_view hex) { return parse_hex64(hex); }

}  // namespace spotcheck::location::messaging
