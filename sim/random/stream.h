// One named random stream of a run. Its seeded sequence depends only on (root seed, name), so
// adding, removing or consuming another stream never changes this one. Every draw goes through the
// stream's DrawSource when it has one (the run's ChoiceSource, sim/choice/); a stand-alone stream
// draws its seeded sequence directly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/platform/random.h"
#include "sim/random/xoshiro.h"

namespace spotcheck::sim {

class Stream;

// Seam: where a bound stream's raw draws come from. sim/choice/'s ChoiceSource is the one
// implementation (it may serve the stream's seeded sequence, log it, or replay a log).
class DrawSource {
 public:
  virtual ~DrawSource() = default;
  // One raw 64-bit draw of `stream` (stream.seeded() holds its seed-derived sequence).
  virtual std::uint64_t draw(Stream& stream) = 0;
};

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
  // A stream of a run: `id` is its creation order in the run, `source` where its draws come from
  // (null: draw the seeded sequence directly).
  void bind(std::uint32_t id, DrawSource* source) {
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
  DrawSource* source_ = nullptr;
  std::uint32_t id_ = 0;
  std::uint64_t draws_ = 0;
};

}  // namespace spotcheck::sim
