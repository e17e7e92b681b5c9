// Scan continuation: opaque to the caller, checked with a keyed MAC so a foreign, garbled or
// re-targeted token is ScanExpired, never a wrong page (docs/redis.md, "Scan").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "impl/store/spi/types.h"

namespace spotcheck::store::redis {

struct ScanCursor {
  std::uint64_t scan_id = 0;   // the open-scan registration in Redis
  std::uint64_t snapshot = 0;  // the version sequence at the scan's first page
  Key last_key;                // the last logical key the previous page examined
};

// What a token is bound to besides its own bytes: the namespace and the scan's range.
struct ScanBinding {
  std::string_view key_namespace;
  std::string_view start;
  std::string_view end;
};

// At most 1 + 1 + 8 + 8 + 2 + kMaxKeyBytes + 16 bytes (< kMaxContinuationBytes).
Bytes encode_continuation(const ScanCursor& cursor, std::string_view secret, const ScanBinding& binding);
// nullopt for anything encode_continuation() did not make with this secret and binding.
std::optional<ScanCursor> decode_continuation(std::string_view token, std::string_view secret,
                                              const ScanBinding& binding);

}  // namespace spotcheck::store::redis
