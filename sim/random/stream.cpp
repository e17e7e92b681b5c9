#include "sim/random/stream.h"

#include <utility>

#include "sim/trace/hash.h"

namespace spotcheck::sim {

std::uint64_t stream_seed(std::uint64_t root_seed, std::string_view name) {
  Hasher hasher(mix64(root_seed ^ 0x5eed5eed5eed5eedULL));
  hasher.add_bytes(name);
  return hasher.finish();
}

Stream::Stream(std::uint64_t root_seed, std::string name)
    : name_(std::move(name)), seeded_(stream_seed(root_seed, name_)) {}

std::uint64_t Stream::next_u64() {
  ++draws_;
  return source_ != nullptr ? source_->draw(*this) : seeded_.next_u64();
}

}  // namespace spotcheck::sim
