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
