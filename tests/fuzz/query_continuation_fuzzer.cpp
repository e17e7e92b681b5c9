// libFuzzer target: decode_continuation, the reader behind `spotcheck locate --continuation` (spec
// §7.4: the token is opaque to its holder, so any text may come back). Anything is a decoded
// position or refused; an accepted token is at most 4,096 bytes, names a non-empty position, and
// is exactly the token encode_continuation writes for what it decoded (no second spelling of one
// position, no altered token accepted).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/location/query/query_continuation.h"
#include "tests/fuzz/fuzz_support.h"

using spotcheck::fuzz::require;
namespace lq = spotcheck::location::query;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto decoded = lq::decode_continuation(text);
  if (!decoded.has_value()) {
    return 0;
  }
  require(text.size() <= lq::kContinuationBytesMax);
  require(!decoded->after_key.empty());
  require(!decoded->filter.stable_type.has_value() || !decoded->filter.stable_type->empty());
  require(!decoded->filter.mesh_name.has_value() || !decoded->filter.mesh_name->empty());
  require(lq::encode_continuation(decoded->filter, decoded->after_key) == text);
  return 0;
}
