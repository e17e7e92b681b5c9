// libFuzzer target: parse_redis_url, the parser behind `spotcheck redis --url`. Any text is a
// URL or a one-line error; an accepted URL has a host, a port and a db in range.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/store/redis/redis_url.h"
#include "tests/fuzz/fuzz_support.h"

using spotcheck::fuzz::require;
using spotcheck::store::redis::parse_redis_url;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = parse_redis_url(text);
  if (!parsed.url.has_value()) {
    require(!parsed.error.empty());
    require(parsed.error.find('\n') == std::string_view::npos);
    return 0;
  }
  const auto& url = *parsed.url;
  require(!url.host.empty());
  require(url.port >= 0 && url.port <= 65535);
  require(url.db >= 0);
  require(!url.redacted().empty());
  return 0;
}
