// Field validators shared by the record validators, the decoders and the CLI. Each returns
// nullopt when the value is acceptable, else a typed error naming `field`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "impl/records/record_error.h"

namespace spotcheck::records {

// Well-formed UTF-8 (no overlong forms, no surrogates, <= U+10FFFF).
bool is_valid_utf8(std::string_view text);
// Length (1..4) of the well-formed UTF-8 sequence starting at text[0], or 0 when it is not one
// (or text is empty).
std::size_t utf8_sequence_bytes(std::string_view text);

std::optional<RecordError> check_utf8(std::string_view field, std::string_view text);
// 1..255 bytes, valid UTF-8, no NUL; no normalization or case folding (spec §3.3).
std::optional<RecordError> check_identity(std::string_view field, std::string_view text);
// Optional free text (endpoint must be non-empty; securityIdentity may be empty): valid UTF-8.
std::optional<RecordError> check_text(std::string_view field, std::string_view text,
                                      bool allow_empty);
// Lowercase hex of 1..255 raw bytes (even length 2..510, [0-9a-f]).
std::optional<RecordError> check_routing_id_hex(std::string_view field, std::string_view hex);
// Exactly 64 lowercase hex characters.
std::optional<RecordError> check_sha256_hex(std::string_view field, std::string_view hex);
// 1..2^63-2 (the exhausted sentinel 2^63-1 is never carried by a record).
std::optional<RecordError> check_generation(std::string_view field, std::uint64_t generation);
// 1..2^63-1.
std::optional<RecordError> check_revision(std::string_view field, std::uint64_t revision);
// min..max inclusive.
std::optional<RecordError> check_range(std::string_view field, std::uint64_t value,
                                       std::uint64_t min, std::uint64_t max);

}  // namespace spotcheck::records
