#include "impl/records/base64.h"

#include <array>
#include <cstdint>

#include "impl/check/check.h"

namespace spotcheck::records {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t kInvalid = 0xff;

constexpr std::array<std::uint8_t, 256> make_decode_table() {
  std::array<std::uint8_t, 256> table{};
  for (auto& entry : table) {
    entry = kInvalid;
  }
  for (std::uint8_t i = 0; i < 64; ++i) {
    table[static_cast<unsigned char>(kAlphabet[i])] = i;
  }
  return table;
}
constexpr std::array<std::uint8_t, 256> kDecode = make_decode_table();

}  // namespace

void base64_encode_into(std::string_view bytes, char* out) {
  const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t whole_groups = bytes.size() / 3;
  [[maybe_unused]] char* const start = out;
  for (std::size_t g = 0; g < whole_groups; ++g) {
    const std::uint32_t v = (std::uint32_t{in[3 * g]} << 16) |
                            (std::uint32_t{in[3 * g + 1]} << 8) | std::uint32_t{in[3 * g + 2]};
    *out++ = kAlphabet[(v >> 18) & 63];
    *out++ = kAlphabet[(v >> 12) & 63];
    *out++ = kAlphabet[(v >> 6) & 63];
    *out++ = kAlphabet[v & 63];
  }
  const std::size_t rest = bytes.size() - 3 * whole_groups;
  if (rest == 1) {
    const std::uint32_t v = std::uint32_t{in[3 * whole_groups]} << 16;
    *out++ = kAlphabet[(v >> 18) & 63];
    *out++ = kAlphabet[(v >> 12) & 63];
    *out++ = '=';
    *out++ = '=';
  } else if (rest == 2) {
    const std::uint32_t v =
        (std::uint32_t{in[3 * whole_groups]} << 16) | (std::uint32_t{in[3 * whole_groups + 1]} << 8);
    *out++ = kAlphabet[(v >> 18) & 63];
    *out++ = kAlphabet[(v >> 12) & 63];
    *out++ = kAlphabet[(v >> 6) & 63];
    *out++ = '=';
  }
  SPOTCHECK_ASSERT(static_cast<std::size_t>(out - start) == base64_encoded_bytes(bytes.size()));
}

void base64_encode_append(std::string_view bytes, std::string& out) {
  const std::size_t start_size = out.size();
  out.resize(start_size + base64_encoded_bytes(bytes.size()));
  base64_encode_into(bytes, out.data() + start_size);
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  base64_encode_append(bytes, out);
  return out;
}

namespace {

// Appends the decoded bytes to `out` on kOk.
Base64Status decode_append(std::string_view text, std::string& out) {
  if (text.size() % 4 != 0) {
    return Base64Status::kInvalid;
  }
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') {
    padding = (text[text.size() - 2] == '=') ? 2 : 1;
  }
  const std::size_t data_chars = text.size() - padding;
  out.reserve(out.size() + text.size() / 4 * 3);
  std::uint32_t bits = 0;
  std::size_t bit_count = 0;
  for (std::size_t i = 0; i < data_chars; ++i) {
    const std::uint8_t sextet = kDecode[static_cast<unsigned char>(text[i])];
    if (sextet == kInvalid) {
      return Base64Status::kInvalid;  // includes '=' before the end
    }
    bits = (bits << 6) | sextet;
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      out.push_back(static_cast<char>((bits >> bit_count) & 0xff));
    }
  }
  SPOTCHECK_ASSERT(bit_count == 0 || bit_count == 2 || bit_count == 4);
  // Padding must leave exactly the 2 or 4 unused bits of a 1- or 2-byte tail, and they are 0.
  if ((padding == 1 && bit_count != 2) || (padding == 2 && bit_count != 4) ||
      (padding == 0 && bit_count != 0)) {
    return Base64Status::kInvalid;
  }
  if ((bits & ((std::uint32_t{1} << bit_count) - 1)) != 0) {
    return Base64Status::kNotCanonical;
  }
  return Base64Status::kOk;
}

}  // namespace

Base64Decoded base64_decode(std::string_view text) {
  Base64Decoded decoded;
  decoded.status = decode_append(text, decoded.bytes);
  if (decoded.status != Base64Status::kOk) {
    decoded.bytes.clear();
  }
  return decoded;
}

}  // namespace spotcheck::records
