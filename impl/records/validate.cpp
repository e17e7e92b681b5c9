#include "impl/records/validate.h"

#include <array>
#include <string>

#include "impl/check/check.h"
#include "impl/records/limits.h"
#include "impl/records/swar.h"

namespace spotcheck::records {
namespace {

RecordError make_error(RecordErrorKind kind, std::string_view field, std::string_view what) {
  std::string message(field);
  message += ": ";
  message += what;
  return RecordError{kind, std::move(message)};
}

constexpr std::array<bool, 256> make_lower_hex_table() {
  std::array<bool, 256> table{};
  for (int c = '0'; c <= '9'; ++c) {
    table[static_cast<std::size_t>(c)] = true;
  }
  for (int c = 'a'; c <= 'f'; ++c) {
    table[static_cast<std::size_t>(c)] = true;
  }
  return table;
}
constexpr std::array<bool, 256> kLowerHex = make_lower_hex_table();

bool all_lower_hex(std::string_view text) {
  bool ok = true;
  for (char c : text) {
    ok &= kLowerHex[static_cast<unsigned char>(c)];  // branch-free over the whole text
  }
  return ok;
}

}  // namespace

std::size_t utf8_sequence_bytes(std::string_view text) {
  if (text.empty()) {
    return 0;
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char lead = bytes[0];
  if (lead < 0x80) {
    return 1;
  }
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) {
      low = 0xa0;  // no overlong forms
    } else if (lead == 0xed) {
      high = 0x9f;  // no surrogates
    }
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) {
      low = 0x90;  // no overlong forms
    } else if (lead == 0xf4) {
      high = 0x8f;  // <= U+10FFFF
    }
  } else {
    return 0;  // continuation byte, overlong C0/C1 lead, or F5..FF
  }
  if (text.size() < length) {
    return 0;
  }
  if (bytes[1] < low || bytes[1] > high) {
    return 0;
  }
  for (std::size_t k = 2; k < length; ++k) {
    if (bytes[k] < 0x80 || bytes[k] > 0xbf) {
      return 0;
    }
  }
  return length;
}

bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.size() - i >= 8 && (swar::load(text.data() + i) & swar::kHighs) == 0) {
      i += 8;  // eight ASCII bytes
      continue;
    }
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_bytes(text.substr(i));
    if (length == 0) {
      return false;
    }
    SPOTCHECK_ASSERT(length <= 4);
    i += length;
  }
  return true;
}

std::optional<RecordError> check_utf8(std::string_view field, std::string_view text) {
  if (!is_valid_utf8(text)) {
    return make_error(RecordErrorKind::kInvalidUtf8, field, "not valid UTF-8");
  }
  return std::nullopt;
}

std::optional<RecordError> check_identity(std::string_view field, std::string_view text) {
  if (text.size() < kIdentityBytesMin) {
    return make_error(RecordErrorKind::kInvalidIdentity, field, "empty identity");
  }
  if (text.size() > kIdentityBytesMax) {
    return make_error(RecordErrorKind::kInvalidIdentity, field,
                      std::to_string(text.size()) + " bytes > 255");
  }
  if (text.find('\0') != std::string_view::npos) {
    return make_error(RecordErrorKind::kInvalidIdentity, field, "contains a NUL byte");
  }
  if (!is_valid_utf8(text)) {
    return make_error(RecordErrorKind::kInvalidIdentity, field, "not valid UTF-8");
  }
  return std::nullopt;
}

std::optional<RecordError> check_text(std::string_view field, std::string_view text,
                                      bool allow_empty) {
  if (!allow_empty && text.empty()) {
    return make_error(RecordErrorKind::kOutOfRange, field, "must not be empty");
  }
  return check_utf8(field, text);
}

std::optional<RecordError> check_routing_id_hex(std::string_view field, std::string_view hex) {
  if (hex.size() < 2 * kRoutingIdBytesMin || hex.size() > 2 * kRoutingIdBytesMax ||
      hex.size() % 2 != 0) {
    return make_error(RecordErrorKind::kInvalidHex, field,
                      "length " + std::to_string(hex.size()) + " is not an even 2..510");
  }
  if (!all_lower_hex(hex)) {
    return make_error(RecordErrorKind::kInvalidHex, field, "not lowercase hex");
  }
  return std::nullopt;
}

std::optional<RecordError> check_sha256_hex(std::string_view field, std::string_view hex) {
  if (hex.size() != kSha256HexChars) {
    return make_error(RecordErrorKind::kInvalidHex, field,
                      "length " + std::to_string(hex.size()) + " != 64");
  }
  if (!all_lower_hex(hex)) {
    return make_error(RecordErrorKind::kInvalidHex, field, "not lowercase hex");
  }
  return std::nullopt;
}

std::optional<RecordError> check_generation(std::string_view field, std::uint64_t generation) {
  if (is_generation_exhausted(generation)) {
    return make_error(RecordErrorKind::kOutOfRange, field,
                      "the exhausted sentinel 2^63-1 is never issued");
  }
  return check_range(field, generation, kGenerationMin, kGenerationMax);
}

std::optional<RecordError> check_revision(std::string_view field, std::uint64_t revision) {
  return check_range(field, revision, kRevisionMin, kRevisionMax);
}

std::optional<RecordError> check_range(std::string_view field, std::uint64_t value,
                                       std::uint64_t min, std::uint64_t max) {
  if (value < min || value > max) {
    return make_error(RecordErrorKind::kOutOfRange, field,
                      std::to_string(value) + " not in " + std::to_string(min) + ".." +
                          std::to_string(max));
  }
  return std::nullopt;
}

}  // namespace spotcheck::records
