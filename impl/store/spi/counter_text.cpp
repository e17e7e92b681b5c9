#include "impl/store/spi/counter_text.h"

#include <charconv>
#include <cstdlib>

namespace spotcheck::store {

Bytes format_counter(std::int64_t value) {
  char buffer[24];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (error != std::errc()) {
    std::abort();  // 24 bytes hold every int64
  }
  return Bytes(buffer, end);
}

std::optional<std::int64_t> parse_counter(const Bytes& bytes) {
  if (bytes.empty() || bytes.size() > 20) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  const char* first = bytes.data();
  const char* last = bytes.data() + bytes.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last) {
    return std::nullopt;
  }
  if (format_counter(value) != bytes) {
    return std::nullopt;  // "+1", "007", "-0": not canonical
  }
  return value;
}

}  // namespace spotcheck::store
