// libFuzzer target: the wire command codec (impl/location/messaging/commands.cpp). decode
// returns a command or nullopt for any bytes; a decoded command encodes and decodes to itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "impl/location/messaging/commands.h"
#include "tests/fuzz/fuzz_support.h"

using spotcheck::fuzz::require;
namespace messaging = spotcheck::location::messaging;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto command = messaging::decode(bytes);
  if (!command.has_value()) {
    return 0;
  }
  const std::string encoded = messaging::encode(*command);
  const auto again = messaging::decode(encoded);
  require(again.has_value());
  require(*again == *command);
  require(messaging::encode(*again) == encoded);
  return 0;
}
