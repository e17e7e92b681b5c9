// One named random stream of a run. Its seeded sequence depends only on (root seed, name), so
// adding, removing or consuming another stream never changes this one. Every draw goes through the
// run's ChoiceSource (sim/choice/) when the stream has one; a stand-alone stream draws its seeded
// sequence directly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/platform/random.h"
#include "sim/random/xoshiro.h"

namespace spotcheck::sim {

class ChoiceSource;

// Seed of the stream `name` under `root_seed`.
std::uint64_t stream_seed(std::uint64_t root_seed, std::string_view name);

// The seed-derived sequence of one stream, drawn directly (no choice source).
class SeededRandom final : public platform::Random {
 public:
  explicit SeededRandom(std::uint64_t seed) : generator_(seed) {}
  std::uint64_t next_u64() override { return generator_.next(); }

 private:
  Xoshiro256 generator_;
};

class Stream final : public platform::Random {
 public:
  Stream(std::uint64_t root_seed, std::string name);
  // A stream of a run: `id` is its creation order in the run, `source` the run's choice source
  // (null: draw the seeded sequence directly).
  void bind(std::uint32_t id, ChoiceSource* source) {
    id_ = id;
    source_ = source;
  }
  std::uint64_t next_u64() override;
  const std::string& name() const { return name_; }
  std::uint32_t id() const { return id_; }
  // The seed-derived sequence; only choice sources draw from it directly.
  SeededRandom& seeded() { return seeded_; }
  // Number of draws so far (useful in traces and when debugging a divergence).
  std::uint64_t draws() const { return draws_; }

 private:
  std::string name_;
  SeededRandom seeded_;
  ChoiceSource* source_ = nullptr;
  std::uint32_t id_ = 0;
  std::uint64_t draws_ = 0;
};

}  // namespace spotcheck::sim
