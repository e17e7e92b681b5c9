#include "impl/location/relocation/relocation_ids.h"

#include "impl/bytes/hex.h"
#include "impl/check/check.h"

namespace spotcheck::location::relocation {

RelocationId RelocationId::random(platform::Random& random) {
  RelocationId id;
  for (int attempt = 0; attempt < 4 && id.empty(); ++attempt) {
    id.high = random.next_u64();
    id.low = random.next_u64();
  }
  SPOTCHECK_ASSERT(!id.empty());
  return id;
}

std::string RelocationId::hex() const {
  std::string out;
  out.reserve(32);
  bytes::append_hex64(out, high);
  bytes::append_hex64(out, low);
  return out;
}

std::optional<RelocationId> RelocationId::parse(std::string_view hex) {
  if (hex.size() != 32) {
    return std::nullopt;
  }
  RelocationId id;
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[i];
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) {
      return std::nullopt;
    }
    std::uint64_t& half = i < 16 ? id.high : id.low;
    half = (half << 4) | static_cast<std::uint64_t>(digit);
  }
  return id;
}

TargetAttemptGeneration TargetAttemptGeneration::random(platform::Random& random) {
  std::uint64_t value = 0;
  for (int attempt = 0; attempt < 4 && value == 0; ++attempt) {
    value = random.next_u64();
  }
  SPOTCHECK_ASSERT(value != 0);
  return TargetAttemptGeneration(value);
}

TargetAttemptGeneration TargetAttemptGeneration::of(std::uint64_t value) {
  SPOTCHECK_ASSERT(value != 0);
  return TargetAttemptGeneration(value);
}

std::string RestoreBinding::text() const {
  return relocation.hex() + "/" + std::to_string(attempt.value()) + "/" + std::to_string(fence.lease_generation) +
         "/" + std::to_string(fence.authority_owner_generation) + "/" + fence.owner_id;
}

}  // namespace spotcheck::location::relocation
