#include "impl/location/query/query_continuation.h"

#include <array>
#include <cstddef>
#include <vector>

#include "impl/bytes/hex.h"
#include "impl/bytes/sha256.h"

namespace spotcheck::location::query {

namespace {

constexpr std::string_view kPrefix = "lq1.";
constexpr std::size_t kChecksumDigits = 16;
constexpr std::size_t kFields = 4;  // kind, type, mesh, after

std::optional<std::string> from_hex(std::string_view text) {
  if (text.size() % 2 != 0) {
    return std::nullopt;
  }
  std::string out;
  out.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int hi = bytes::hex_value(text[i]);
    const int lo = bytes::hex_value(text[i + 1]);
    if (hi < 0 || lo < 0) {
      return std::nullopt;
    }
    out.push_back(static_cast<char>((hi << 4) | lo));
  }
  return out;
}

std::string checksum(std::string_view body) { return bytes::sha256_hex(body).substr(0, kChecksumDigits); }

}  // namespace

std::string encode_continuation(const ListFilter& filter, std::string_view after_key) {
  std::string body(kPrefix);
  body += bytes::to_hex(records::to_string(filter.object_kind));
  body += '.';
  body += bytes::to_hex(filter.stable_type.value_or(""));
  body += '.';
  body += bytes::to_hex(filter.mesh_name.value_or(""));
  body += '.';
  body += bytes::to_hex(after_key);
  body += '.';
  body += checksum(body);
  return body;
}

std::optional<DecodedContinuation> decode_continuation(std::string_view token) {
  if (token.size() > kContinuationBytesMax || !token.starts_with(kPrefix) ||
      token.size() < kPrefix.size() + kChecksumDigits + kFields) {
    return std::nullopt;
  }
  const std::string_view body = token.substr(0, token.size() - kChecksumDigits);
  if (checksum(body) != token.substr(body.size())) {
    return std::nullopt;
  }
  std::array<std::string, kFields> fields;
  std::string_view rest = body.substr(kPrefix.size());
  for (std::size_t i = 0; i < kFields; ++i) {
    const std::size_t dot = rest.find('.');
    if (dot == std::string_view::npos) {
      return std::nullopt;
    }
    std::optional<std::string> field = from_hex(rest.substr(0, dot));
    if (!field.has_value()) {
      return std::nullopt;
    }
    fields[i] = std::move(*field);
    rest = rest.substr(dot + 1);
  }
  if (!rest.empty()) {
    return std::nullopt;
  }
  const std::optional<records::ObjectKind> kind = records::parse_object_kind(fields[0]);
  if (!kind.has_value() || fields[3].empty()) {
    return std::nullopt;
  }
  DecodedContinuation decoded;
  decoded.filter.object_kind = *kind;
  if (!fields[1].empty()) {
    decoded.filter.stable_type = fields[1];
  }
  if (!fields[2].empty()) {
    decoded.filter.mesh_name = fields[2];
  }
  decoded.after_key = std::move(fields[3]);
  return decoded;
}

}  // namespace spotcheck::location::query
