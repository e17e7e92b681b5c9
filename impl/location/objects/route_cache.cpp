#include "impl/location/objects/route_cache.h"

#include <utility>

#include "impl/check/check.h"

namespace spotcheck::location::objects {

RouteCache::RouteCache(platform::TimeUs max_age_us, std::size_t entries_max)
    : _max_age_us(max_age_us), _entries_max(entries_max) {
  SPOTCHECK_ASSERT(max_age_us >= 0);
  SPOTCHECK_ASSERT(entries_max > 0);
}

std::optional<CachedRoute> RouteCache::find(const ObjectKey& key, platform::TimeUs now_us) {
  auto it = _entries.find(key);
  if (it == _entries.end()) {
    return std::nullopt;
  }
  if (now_us >= it->second.expires_us) {
    _entries.erase(it);
    return std::nullopt;
  }
  return it->second;
}

void RouteCache::put(CachedRoute route, platform::TimeUs now_us) {
  SPOTCHECK_ASSERT(enabled());
  SPOTCHECK_ASSERT(route.expires_us > now_us);
  SPOTCHECK_ASSERT(route.expires_us <= now_us + _max_age_us);
  SPOTCHECK_ASSERT(route.object_generation > 0 && route.owner_generation > 0 && route.store_version > 0);
  auto it = _entries.find(route.key);
  if (it != _entries.end()) {
    if (it->second.store_version > route.store_version) {
      return;  // the cache already confirmed a later change of the row
    }
    it->second = std::move(route);
    return;
  }
  if (_entries.size() >= _entries_max) {
    evict_earliest();
  }
  ObjectKey key = route.key;
  _entries.emplace(std::move(key), std::move(route));
}

bool RouteCache::drop(const ObjectKey& key) { return _entries.erase(key) != 0; }

bool RouteCache::confirm_version(const ObjectKey& key, std::uint64_t store_version) {
  auto it = _entries.find(key);
  if (it == _entries.end() || it->second.store_version >= store_version) {
    return false;
  }
  _entries.erase(it);
  return true;
}

void RouteCache::evict_earliest() {
  SPOTCHECK_ASSERT(!_entries.empty());
  auto earliest = _entries.begin();
  for (auto it = _entries.begin(); it != _entries.end(); ++it) {
    if (it->second.expires_us < earliest->second.expires_us) {
      earliest = it;
    }
  }
  _entries.erase(earliest);
}

}  // namespace spotcheck::location::objects
