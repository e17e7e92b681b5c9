// Sending a regular message to an Actor or Spot by its global ID (spec §7.2, §7.3): look the
// object up — in the location cache, or by reading its current location record and its owner's
// lease record — then send command 52 to the owner's route and wait for the one reply (53).
//
// Regular messages go only to a Ready object: Missing is not_found, Creating not_ready (neither
// is cached, nor a store error). A message the owner answered without running it (not_here,
// stale_generation: the cached or read route was stale) drops the cache entry and is looked up
// once more and sent again, with the same sequence number; a message with no reply by the
// deadline may have run and is never sent again (no_reply). The sender numbers the messages of
// each stream (increasing, from 1, in this host run), so where they run the order of one stream's
// messages to one object can be checked.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "impl/location/authority/authority_ops.h"
#include "impl/location/config/location_config.h"
#include "impl/location/lease/owner_lease.h"
#include "impl/location/messaging/dispatcher.h"
#include "impl/location/objects/route_cache.h"
#include "impl/platform/platform.h"
#include "impl/store/spi/location_store.h"

namespace spotcheck::location::objects {

enum class SendOutcome {
  kRan,          // the owner ran it; `reply` is the application's answer
  kNotFound,     // no record of the ID
  kNotReady,     // the ID is Creating
  kUnavailable,  // the owner cannot accept new work (lease ended, admission closed, still stale)
  kNoReply,      // no reply by the deadline: it may have run; it is not sent again
  kStoreError,   // the location could not be read
  kNoHandler,    // the owner has no handler for the object's stable type
  kSent,         // post(): the Send left for the owner's route; nothing comes back
};
std::string_view to_string(SendOutcome outcome);

struct SendResult {
  SendOutcome outcome = SendOutcome::kUnavailable;
  std::string reply;
  std::uint64_t sequence = 0;
};

class ObjectClient {
 public:
  ObjectClient(const LocationConfig& config, platform::Platform& platform, store::LocationStore& store,
               OwnerLease& lease, AuthorityOps& authority, messaging::Dispatcher& dispatcher, std::string rid_hex);
  ObjectClient(const ObjectClient&) = delete;
  ObjectClient& operator=(const ObjectClient&) = delete;

  // `stream`: the caller's sequential flow of sends (e.g. one client task); the order of one
  // stream's messages to one object is kept, concurrent streams have none between them.
  SendResult send(const ObjectKey& key, std::string payload, platform::TimeUs deadline_us, std::uint64_t stream = 0);
  // A Send (spec §9.3: no ReplyRouteId): one command 52 with request 0, to the route the cache or
  // a fresh read gives, once. The owner runs it, or drops it unrun (a stale route, admission
  // closed), and answers nothing: no reply, no look-up again, no resend. kSent, or a lookup
  // failure as send() has them. Numbered in `stream` like send().
  SendResult post(const ObjectKey& key, std::string payload, platform::TimeUs deadline_us, std::uint64_t stream);
  // Forget `stream`'s number (its sender is gone: e.g. an instance whose handlers posted).
  void end_stream(std::uint64_t stream) { _sequences.erase(stream); }

  RouteCache& cache() { return _cache; }

 private:
  struct Lookup {
    std::optional<CachedRoute> route;
    SendOutcome failure = SendOutcome::kUnavailable;  // when there is no route
    bool from_cache = false;
  };
  Lookup route_to(const ObjectKey& key, platform::TimeUs deadline_us);
  Lookup read_route(const ObjectKey& key, platform::TimeUs deadline_us);
  void fill(const CachedRoute& route, std::int64_t store_now_ms, platform::TimeUs read_before_us);
  struct Outgoing {
    messaging::OperationId op;
    std::uint64_t stream = 0;
    std::uint64_t sequence = 0;
    std::string payload;
  };
  Outgoing next_outgoing(std::uint64_t stream, std::string payload);
  messaging::ObjectMessage launch(const CachedRoute& route, const Outgoing& outgoing, bool from_cache,
                                  std::uint64_t request);
  std::optional<messaging::ObjectMessageReply> exchange(const CachedRoute& route, const Outgoing& outgoing,
                                                        bool from_cache, platform::TimeUs deadline_us);
  void drop(const CachedRoute& route, std::string_view reason);
  void answered(const ObjectKey& key, const Outgoing& outgoing, std::string_view outcome);

  const LocationConfig& _config;
  platform::Platform& _platform;
  store::LocationStore& _store;
  OwnerLease& _lease;
  AuthorityOps& _authority;
  messaging::Dispatcher& _dispatcher;
  std::string _rid_hex;
  RouteCache _cache;
  // stream -> the last number it sent: one increasing number per stream, so the numbers of one
  // stream's messages to any one object increase too, whatever the number of objects.
  std::map<std::uint64_t, std::uint64_t> _sequences;
};

}  // namespace spotcheck::location::objects
