// One named random stream of a run. Its sequence depends only on (root seed, name), so adding,
// removing or consuming another stream never changes this one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/platform/random.h"
#include "sim/random/xoshiro.h"

namespace spotcheck::sim {

// Seed of the stream `name` under `root_seed`.
std::uint64_t stream_seed(std::uint64_t root_seed, std::string_view name);

class Stream final : public platform::Random {
 public:
  Stream(std::uint64_t root_seed, std::string name);
  std::uint64_t next_u64() override;
  const std::string& name() const { return name_; }
  // Number of draws so far (useful in traces and when debugging a divergence).
  std::uint64_t draws() const { return draws_; }

 private:
  std::string name_;
  Xoshiro256 generator_;
  std::uint64_t draws_ = 0;
};

}  // namespace spotcheck::sim
