// Standard base64 (RFC 4648 §4 alphabet, '=' padding, no line breaks) for the authority
// payload. The decoder is strict: exactly the bytes base64_encode would write.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace spotcheck::records {

// Encoded length: 4 * ceil(size / 3).
constexpr std::size_t base64_encoded_bytes(std::size_t size) { return (size + 2) / 3 * 4; }
// Writes exactly base64_encoded_bytes(bytes.size()) characters at `out`.
void base64_encode_into(std::string_view bytes, char* out);
void base64_encode_append(std::string_view bytes, std::string& out);
std::string base64_encode(std::string_view bytes);

enum class Base64Status {
  kOk,
  kInvalid,       // a character outside the alphabet, bad length, misplaced '='
  kNotCanonical,  // the unused low bits of the last group are not zero
};
struct Base64Decoded {
  Base64Status status = Base64Status::kInvalid;
  std::string bytes;  // the decoded bytes when status is kOk, empty otherwise
};
Base64Decoded base64_decode(std::string_view text);

}  // namespace spotcheck::records
