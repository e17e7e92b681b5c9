// Property `route-cache` (spec §7.3): the location cache answers only with a Ready location, and
// never past its bound — the earlier of when it was filled + RouteCacheMaxAge and the owner's last
// admission time as the owner-lease read of the fill showed it:
//     read_before + (ExpiresAt - StoreNow) - owner lease fencing margin     (spec §5)
// all in the caching node's local clock, as the spec defines them.
//
// Judged from cache.filled (the row's state, the owner-lease read, the bound the cache kept) and
// cache.hit (the entry used, and when). The bound is recomputed here from the fill's own
// observation; the cache's kept bound is not trusted. A hit at a StoreVersion lower than one the
// host run had already read for the object is a violation too (§7.3: an entry goes at once on a
// higher StoreVersion). Online: one entry per (caching host run, object): its fill of the highest
// StoreVersion (an older fill after it is not what the cache keeps).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "properties/common/string_map.h"
#include "properties/property_checker.h"
#include "properties/property_options.h"

namespace spotcheck::properties {

class RouteCacheChecker final : public PropertyChecker {
 public:
  static constexpr std::string_view kName = "route-cache";

  explicit RouteCacheChecker(const PropertyOptions& options);
  std::string_view name() const override { return kName; }
  std::optional<std::string> on_event(const sim::TraceEvent& event) override;

 private:
  std::optional<std::string> on_filled(const sim::TraceEvent& event);
  std::optional<std::string> on_hit(const sim::TraceEvent& event);

  struct Fill {
    std::uint64_t event = 0;
    std::int64_t store_version = 0;
    std::int64_t age_bound_us = 0;    // filled at + RouteCacheMaxAge
    std::int64_t owner_bound_us = 0;  // the owner's last admission time by the fill's lease read
  };
  StringMap<Fill> _fills;  // (caching host run, kind, id) -> its fill of the highest StoreVersion
};

}  // namespace spotcheck::properties
