// The location cache (spec §7.3): a sender may keep a Ready location for a while instead of
// reading the Location Store for every message. An entry holds the ID, ObjectGeneration,
// AuthorityOwnerGeneration, StoreVersion, the owner lease (host run and the ExpiresAt read), the
// node run generation and the route, and a local bound: the earlier of when it was filled +
// RouteCacheMaxAge and the owner's last admission time as its lease record showed it (an owner
// past that accepts no new work, §5). Only Ready rows are ever put (Missing, Creating and store
// errors never are); an entry goes at once when a higher StoreVersion is confirmed, when the
// owner refuses a message sent over it, and at its bound. RouteCacheMaxAge 0 disables the cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "impl/location/lease/owner_lease.h"
#include "impl/location/objects/object_key.h"
#include "impl/platform/time.h"
#include "impl/platform/transport.h"

namespace spotcheck::location::objects {

struct CachedRoute {
  ObjectKey key;
  std::uint64_t object_generation = 0;
  std::uint64_t owner_generation = 0;
  std::uint64_t store_version = 0;
  HostRun owner;                      // the owner host run: its lease generation is the node run generation
  std::int64_t lease_expires_ms = 0;  // the owner lease record's ExpiresAt as read
  platform::RoutingId route = 0;
  std::string route_hex;
  platform::TimeUs expires_us = 0;    // local: not used at or after it
};

class RouteCache {
 public:
  explicit RouteCache(platform::TimeUs max_age_us, std::size_t entries_max = 10'000);

  bool enabled() const { return _max_age_us > 0; }
  platform::TimeUs max_age_us() const { return _max_age_us; }

  // The entry for `key` if it is still within its bound at local `now_us` (an expired one goes).
  std::optional<CachedRoute> find(const ObjectKey& key, platform::TimeUs now_us);
  // Keeps `route` unless the cache holds a higher StoreVersion of the key. Requires enabled(), a
  // bound after `now_us` and within now + RouteCacheMaxAge. At entries_max the entry with the
  // earliest bound goes first.
  void put(CachedRoute route, platform::TimeUs now_us);
  // Drops the entry of `key` (the owner refused a message sent over it); true if one was there.
  bool drop(const ObjectKey& key);
  // A StoreVersion of `key` was confirmed: an entry of a lower one goes. True if one went.
  bool confirm_version(const ObjectKey& key, std::uint64_t store_version);

  std::size_t size() const { return _entries.size(); }

 private:
  void evict_earliest();

  platform::TimeUs _max_age_us;
  std::size_t _entries_max;
  std::map<ObjectKey, CachedRoute> _entries;  // ordered: nothing depends on hash order
};

}  // namespace spotcheck::location::objects
