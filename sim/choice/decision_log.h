// The decision log of one run: every choice in the order the run made it. A decision names its
// stream (an index into stream_names(); the scheduler's picks are logged under "scheduler") and
// holds either a raw 64-bit draw (count 0) or the index picked among `count` candidates. Bounded:
// append() refuses once max_decisions are held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spotcheck::sim {

struct Decision {
  std::uint64_t value = 0;   // the raw draw, or the index picked (< count)
  std::uint32_t stream = 0;  // index into DecisionLog::stream_names()
  std::uint32_t count = 0;   // 0: a raw draw; N >= 2: a pick among N
  friend bool operator==(const Decision&, const Decision&) = default;
};

class DecisionLog {
 public:
  static constexpr std::size_t kDefaultMaxDecisions = 4'000'000;  // 64 MB of decisions
  static constexpr std::size_t kMaxStreams = 1'000'000;

  explicit DecisionLog(std::size_t max_decisions = kDefaultMaxDecisions);

  // Index of `name` in stream_names(), added if new.
  std::uint32_t stream_index(std::string_view name);
  std::optional<std::uint32_t> find_stream(std::string_view name) const;
  // False (and nothing appended) once the log holds max_decisions.
  bool append(Decision decision);
  // Shrinking and the tests edit single decisions.
  void set_value(std::size_t index, std::uint64_t value);

  const std::vector<std::string>& stream_names() const { return stream_names_; }
  const std::vector<Decision>& decisions() const { return decisions_; }
  std::size_t size() const { return decisions_.size(); }
  std::size_t max_decisions() const { return max_decisions_; }
  friend bool operator==(const DecisionLog&, const DecisionLog&) = default;

 private:
  std::size_t max_decisions_;
  std::vector<std::string> stream_names_;
  std::vector<Decision> decisions_;
};

// "decision 12 (stream 'network', pick 2 among 3)" — how refusals name a decision.
std::string describe_decision(const DecisionLog& log, std::size_t index);

}  // namespace spotcheck::sim
