// A host run as events name it: (OwnerId, LeaseGeneration) (spec §3.1). OwnerId is fresh per
// host run, so checkers key per-host-run state by the OwnerId text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spotcheck::properties {

struct HostRunRef {
  std::string_view owner;
  std::int64_t lease_gen = 0;

  bool empty() const { return owner.empty(); }
  friend bool operator==(const HostRunRef&, const HostRunRef&) = default;
};

// A stored copy.
struct HostRun {
  std::string owner;
  std::int64_t lease_gen = 0;

  HostRun() = default;
  explicit HostRun(const HostRunRef& ref) : owner(ref.owner), lease_gen(ref.lease_gen) {}
  bool same(const HostRunRef& ref) const { return owner == ref.owner && lease_gen == ref.lease_gen; }
};

// "host run <owner>/<lease_gen>"
std::string describe(const HostRunRef& run);
std::string describe(const HostRun& run);

}  // namespace spotcheck::properties
