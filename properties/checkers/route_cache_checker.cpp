#include "properties/checkers/route_cache_checker.h"

#include <algorithm>

#include "impl/location/events/object_events.h"
#include "impl/platform/event_kinds.h"
#include "properties/common/describe.h"
#include "properties/common/read_event.h"

namespace spotcheck::properties {

namespace events = location::events;

namespace {

// (caching host run, object)
std::string cache_key(std::string_view owner, std::int64_t lease_gen, std::string_view kind, std::string_view id) {
  return host_run_object_key(owner, lease_gen, object_key(kind, id));
}

}  // namespace

RouteCacheChecker::RouteCacheChecker(const PropertyOptions& options) { static_cast<void>(options); }

std::optional<std::string> RouteCacheChecker::on_event(const sim::TraceEvent& event) {
  if (event.kind == kinds::kCacheFilled) {
    return on_filled(event);
  }
  if (event.kind == kinds::kCacheHit) {
    return on_hit(event);
  }
  return std::nullopt;
}

std::optional<std::string> RouteCacheChecker::on_filled(const sim::TraceEvent& event) {
  const auto read = read_event<events::RouteCacheFilled>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::RouteCacheFilled& fill = read.event;
  const std::string object = describe_object(fill.kind, fill.id);
  if (fill.state != "ready") {
    return where(event) + " cache.filled: " + object + " was cached in state " + std::string(fill.state) +
           ": Missing, Creating and store errors are never cached (spec §7.3)";
  }
  if (fill.max_age_us <= 0) {
    return where(event) + " cache.filled: " + object + " was cached with RouteCacheMaxAge " +
           std::to_string(fill.max_age_us) + " us: 0 disables the cache (spec §7.3)";
  }
  const std::int64_t owner_bound =
      fill.read_before_us + (fill.lease_expires_ms - fill.store_now_ms) * 1000 - fill.margin_us;
  // Two tasks of one host run may fill from reads that straddle a change: the cache keeps the
  // higher StoreVersion, so an older fill after a newer one is not what it holds.
  Fill& kept = _fills[cache_key(fill.owner, fill.lease_gen, fill.kind, fill.id)];
  if (fill.store_version >= kept.store_version) {
    kept = Fill{event.index, fill.store_version, fill.now_us + fill.max_age_us, owner_bound};
  }
  return std::nullopt;
}

std::optional<std::string> RouteCacheChecker::on_hit(const sim::TraceEvent& event) {
  const auto read = read_event<events::RouteCacheUse>(event);
  if (!read.ok()) {
    return read.problem;
  }
  const events::RouteCacheUse& hit = read.event;
  const std::string object = describe_object(hit.kind, hit.id);
  auto it = _fills.find(cache_key(hit.owner, hit.lease_gen, hit.kind, hit.id));
  if (it != _fills.end() && hit.store_version < it->second.store_version) {
    return where(event) + " cache.hit: the cache of host run " + std::string(hit.owner) + "/" +
           std::to_string(hit.lease_gen) + " answered for " + object + " at StoreVersion " +
           std::to_string(hit.store_version) + " after it had read StoreVersion " +
           std::to_string(it->second.store_version) + " (" + cite(it->second.event) +
           "): an entry goes at once on a higher StoreVersion (spec §7.3)";
  }
  if (it == _fills.end() || it->second.store_version != hit.store_version) {
    return where(event) + " cache.hit: the cache of host run " + std::string(hit.owner) + "/" +
           std::to_string(hit.lease_gen) + " answered for " + object + " at StoreVersion " +
           std::to_string(hit.store_version) + ", which it never filled";
  }
  const Fill& fill = it->second;
  if (hit.now_us >= fill.age_bound_us) {
    return where(event) + " cache.hit: " + object + " answered from the cache at local " + std::to_string(hit.now_us) +
           " us, at or past its fill (" + cite(fill.event) + ") + RouteCacheMaxAge = " +
           std::to_string(fill.age_bound_us) + " us (spec §7.3)";
  }
  if (hit.now_us >= fill.owner_bound_us) {
    return where(event) + " cache.hit: " + object + " answered from the cache at local " + std::to_string(hit.now_us) +
           " us, at or past its owner's last admission time " + std::to_string(fill.owner_bound_us) +
           " us as the fill's owner-lease read showed it (" + cite(fill.event) +
           "): a cached route never outlives the time its owner can accept new work (spec §7.3)";
  }
  return std::nullopt;
}

}  // namespace spotcheck::properties
