#include "impl/store/memory/counter_codec.h"

#include <charconv>

#include "impl/store/memory/check.h"

namespace spotcheck::store::memory {

Bytes format_counter(std::int64_t value) {
  char buffer[24];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  MEMSTORE_ASSERT(error == std::errc());
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

std::optional<std::int64_t> bounded_add(std::int64_t current, std::int64_t delta, std::int64_t min,
                                        std::int64_t max) {
  MEMSTORE_ASSERT(min <= max);
  std::int64_t sum = 0;
  if (__builtin_add_overflow(current, delta, &sum)) {
    return std::nullopt;
  }
  if (sum < min || sum > max) {
    return std::nullopt;
  }
  return sum;
}

}  // namespace spotcheck::store::memory
