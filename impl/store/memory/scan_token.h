// Scan continuations of the in-memory store: opaque bytes naming the scan and the last key it
// returned, signed with a keyed MAC (HMAC-SHA-256, truncated) over the token and the scan's
// range, so a garbled token, a forged one, or one used for another range does not decode.
//
// Layout: "msc1" | scan id (8 bytes, big-endian) | key length (2, big-endian) | last key | mac (16)
// At most 4 + 8 + 2 + 1,024 + 16 = 1,054 bytes (<= kMaxContinuationBytes).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "impl/store/spi/types.h"

namespace spotcheck::store::memory {

struct ScanPosition {
  std::uint64_t scan_id = 0;
  Key last_key;  // the last key the scan returned; the next page starts after it
};

class ScanTokenCodec {
 public:
  explicit ScanTokenCodec(std::uint64_t key_seed);

  Bytes encode(const ScanPosition& position, const Key& start, const Key& end) const;
  // nullopt when the token is malformed, forged, or was made for a different [start, end).
  std::optional<ScanPosition> decode(const Bytes& token, const Key& start, const Key& end) const;

  static constexpr std::size_t kMacBytes = 16;
  static constexpr std::size_t kMaxTokenBytes = 4 + 8 + 2 + kMaxKeyBytes + kMacBytes;

 private:
  std::array<unsigned char, kMacBytes> mac(const Bytes& body, const Key& start, const Key& end) const;

  std::array<unsigned char, 32> _mac_key{};
};

}  // namespace spotcheck::store::memory
