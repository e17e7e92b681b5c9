// The run's root seed split into named, independent streams ("scheduler", "network", "clock",
// "faults", "node/<name>/run/<n>", ...). A stream is created on first use and lives as long as
// the registry; its reference stays valid. With a draw source (the run's ChoiceSource, sim/choice/),
// every draw of every stream goes through it; without one, streams draw their seeded sequences
// directly.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "sim/random/stream.h"

namespace spotcheck::sim {

class StreamRegistry {
 public:
  explicit StreamRegistry(std::uint64_t root_seed) : root_seed_(root_seed) {}
  Stream& get(std::string_view name);
  // From now on every stream, old and new, draws through `source` (which must outlive them).
  void set_draw_source(DrawSource& source);
  std::uint64_t root_seed() const { return root_seed_; }
  std::size_t size() const { return streams_.size(); }

 private:
  std::uint64_t root_seed_;
  DrawSource* source_ = nullptr;
  std::uint32_t next_id_ = 0;
  std::map<std::string, std::unique_ptr<Stream>, std::less<>> streams_;
};

}  // namespace spotcheck::sim
