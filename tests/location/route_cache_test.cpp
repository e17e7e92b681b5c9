// The location cache (spec §7.3) on its own: an entry answers only before its bound, a higher
// StoreVersion or a refusal removes it, a lower StoreVersion never replaces a higher one, and a
// full cache evicts the entry that ends first.
#include <gtest/gtest.h>

#include "impl/location/objects/route_cache.h"

namespace spotcheck::location::objects {
namespace {

using platform::seconds;

CachedRoute route(const std::string& id, std::uint64_t version, platform::TimeUs expires_us) {
  CachedRoute r;
  r.key = ObjectKey{records::AuthorityKind::kActor, id};
  r.object_generation = 7;
  r.owner_generation = 3;
  r.store_version = version;
  r.owner = HostRun{"owner-a", 2};
  r.lease_expires_ms = 1'000'000;
  r.route = 0xa1;
  r.route_hex = "00000000000000a1";
  r.expires_us = expires_us;
  return r;
}

const ObjectKey kP{records::AuthorityKind::kActor, "p"};

TEST(RouteCache, AnEntryAnswersOnlyBeforeItsBound) {
  RouteCache cache(seconds(15));
  ASSERT_TRUE(cache.enabled());
  cache.put(route("p", 5, seconds(10)), seconds(1));
  ASSERT_TRUE(cache.find(kP, seconds(10) - 1).has_value());
  EXPECT_EQ(cache.find(kP, seconds(10) - 1)->store_version, 5u);
  EXPECT_FALSE(cache.find(kP, seconds(10)).has_value()) << "at its bound the entry is gone";
  EXPECT_EQ(cache.size(), 0u);
  // The same Id as a Spot is another key.
  cache.put(route("p", 5, seconds(20)), seconds(10));
  EXPECT_FALSE(cache.find(ObjectKey{records::AuthorityKind::kSpot, "p"}, seconds(11)).has_value());
}

TEST(RouteCache, AHigherStoreVersionRemovesTheEntryAndALowerOneNeverReplacesIt) {
  RouteCache cache(seconds(15));
  cache.put(route("p", 5, seconds(10)), 0);
  EXPECT_FALSE(cache.confirm_version(kP, 5)) << "the same version keeps it";
  cache.put(route("p", 4, seconds(12)), 0);
  EXPECT_EQ(cache.find(kP, 1)->store_version, 5u) << "an older row never replaces a newer one";
  cache.put(route("p", 6, seconds(12)), 0);
  EXPECT_EQ(cache.find(kP, 1)->store_version, 6u);
  EXPECT_TRUE(cache.confirm_version(kP, 7));
  EXPECT_FALSE(cache.find(kP, 1).has_value());
}

TEST(RouteCache, ARefusedRouteIsDropped) {
  RouteCache cache(seconds(15));
  cache.put(route("p", 5, seconds(10)), 0);
  EXPECT_TRUE(cache.drop(kP));
  EXPECT_FALSE(cache.drop(kP));
  EXPECT_FALSE(cache.find(kP, 1).has_value());
}

TEST(RouteCache, AFullCacheEvictsTheEntryThatEndsFirst) {
  RouteCache cache(seconds(15), 2);
  cache.put(route("a", 1, seconds(9)), 0);
  cache.put(route("b", 1, seconds(5)), 0);
  cache.put(route("c", 1, seconds(7)), 0);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_TRUE(cache.find(ObjectKey{records::AuthorityKind::kActor, "a"}, 1).has_value());
  EXPECT_FALSE(cache.find(ObjectKey{records::AuthorityKind::kActor, "b"}, 1).has_value());
  EXPECT_TRUE(cache.find(ObjectKey{records::AuthorityKind::kActor, "c"}, 1).has_value());
}

TEST(RouteCache, ZeroMaxAgeDisablesIt) {
  const RouteCache cache(0);
  EXPECT_FALSE(cache.enabled());
}

}  // namespace
}  // namespace spotcheck::location::objects
