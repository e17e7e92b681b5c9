#include "impl/location/objects/object_client.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "impl/check/check.h"
#include "impl/location/events/object_events.h"
#include "impl/location/lease/admission_deadline.h"
#include "impl/platform/event_kinds.h"
#include "impl/platform/marks.h"
#include "impl/records/keys.h"
#include "impl/records/owner_lease_record.h"

namespace spotcheck::location::objects {

using messaging::MessageOutcome;
using platform::as_i64;
using platform::TimeUs;

namespace {

// Lookups of one send: the first (cache or store) and one more after the owner said the route
// was stale, and one after that (the row may have changed twice).
constexpr int kRouteAttemptsMax = 3;
// Sender streams one host run keeps a number for (a stream is a caller's sequential flow of
// sends, e.g. a client task: a handful).
constexpr std::size_t kStreamsMax = 65'536;

}  // namespace

std::string_view to_string(SendOutcome outcome) {
  switch (outcome) {
    case SendOutcome::kRan:
      return "ran";
    case SendOutcome::kNotFound:
      return "not_found";
    case SendOutcome::kNotReady:
      return "not_ready";
    case SendOutcome::kUnavailable:
      return "unavailable";
    case SendOutcome::kNoReply:
      return "no_reply";
    case SendOutcome::kStoreError:
      return "store_error";
    case SendOutcome::kNoHandler:
      return "no_handler";
    case SendOutcome::kSent:
      return "sent";
  }
  SPOTCHECK_ASSERT(false);
  return "";
}

ObjectClient::ObjectClient(const LocationConfig& config, platform::Platform& platform, store::LocationStore& store,
                           OwnerLease& lease, AuthorityOps& authority, messaging::Dispatcher& dispatcher,
                           std::string rid_hex)
    : _config(config),
      _platform(platform),
      _store(store),
      _lease(lease),
      _authority(authority),
      _dispatcher(dispatcher),
      _rid_hex(std::move(rid_hex)),
      _cache(config.route_cache_max_age_us) {}

ObjectClient::Outgoing ObjectClient::next_outgoing(std::uint64_t stream, std::string payload) {
  SPOTCHECK_ASSERT(_sequences.size() < kStreamsMax || _sequences.count(stream) != 0);
  return Outgoing{messaging::OperationId::random(_platform.random), stream, ++_sequences[stream], std::move(payload)};
}

SendResult ObjectClient::post(const ObjectKey& key, std::string payload, TimeUs deadline_us, std::uint64_t stream) {
  const Outgoing outgoing = next_outgoing(stream, std::move(payload));
  const Lookup lookup = route_to(key, deadline_us);
  if (!lookup.route.has_value()) {
    answered(key, outgoing, to_string(lookup.failure));
    return SendResult{lookup.failure, {}, outgoing.sequence};
  }
  const messaging::ObjectMessage message = launch(*lookup.route, outgoing, lookup.from_cache, 0);
  _dispatcher.send(lookup.route->route, messaging::Command{message});
  answered(key, outgoing, to_string(SendOutcome::kSent));
  return SendResult{SendOutcome::kSent, {}, outgoing.sequence};
}

SendResult ObjectClient::send(const ObjectKey& key, std::string payload, TimeUs deadline_us, std::uint64_t stream) {
  const Outgoing outgoing = next_outgoing(stream, std::move(payload));
  const std::uint64_t sequence = outgoing.sequence;
  for (int attempt = 0; attempt < kRouteAttemptsMax; ++attempt) {
    if (_platform.clock.now_us() >= deadline_us) {
      break;  // the owner kept refusing until the deadline: unavailable
    }
    const Lookup lookup = route_to(key, deadline_us);
    if (!lookup.route.has_value()) {
      answered(key, outgoing, to_string(lookup.failure));
      return SendResult{lookup.failure, {}, sequence};
    }
    const CachedRoute& route = *lookup.route;
    std::optional<messaging::ObjectMessageReply> reply = exchange(route, outgoing, lookup.from_cache, deadline_us);
    if (!reply.has_value()) {
      drop(route, "no_reply");
      answered(key, outgoing, to_string(SendOutcome::kNoReply));
      return SendResult{SendOutcome::kNoReply, {}, sequence};
    }
    answered(key, outgoing, messaging::to_string(reply->outcome));
    switch (reply->outcome) {
      case MessageOutcome::kRan:
        return SendResult{SendOutcome::kRan, std::move(reply->reply), sequence};
      case MessageOutcome::kNoHandler:
        return SendResult{SendOutcome::kNoHandler, {}, sequence};
      case MessageOutcome::kNotAdmitted:
        drop(route, "not_admitted");
        return SendResult{SendOutcome::kUnavailable, {}, sequence};
      case MessageOutcome::kNotHere:
      case MessageOutcome::kStaleGeneration:
        drop(route, messaging::to_string(reply->outcome));
        continue;  // not run: look it up again
    }
  }
  answered(key, outgoing, to_string(SendOutcome::kUnavailable));
  return SendResult{SendOutcome::kUnavailable, {}, sequence};
}

ObjectClient::Lookup ObjectClient::route_to(const ObjectKey& key, TimeUs deadline_us) {
  if (_cache.enabled()) {
    const TimeUs now = _platform.clock.now_us();
    if (std::optional<CachedRoute> cached = _cache.find(key, now)) {
      SPOTCHECK_ASSERT(now < cached->expires_us);
      platform::sometimes(_platform.events, platform::Mark::kRouteCacheHit);
      const HostRun& self = _lease.host_run();
      platform::emit_event(_platform.events, kinds::kCacheHit,
                           events::RouteCacheUse{self.owner_id, as_i64(self.lease_generation),
                                                 records::to_string(key.kind), key.id,
                                                 as_i64(cached->store_version), now, cached->expires_us, ""});
      return Lookup{std::move(cached), SendOutcome::kRan, true};
    }
  }
  return read_route(key, deadline_us);
}

// The current location record, then its owner's lease record (§7.3: the entry's bound).
ObjectClient::Lookup ObjectClient::read_route(const ObjectKey& key, TimeUs deadline_us) {
  const TimeUs request_deadline = std::min(deadline_us, _platform.clock.now_us() + _config.store_request_timeout_us);
  Result<AuthorityRead> read = _authority.read(AuthorityKey{key.kind, key.id}, request_deadline);
  if (!read.ok()) {
    return Lookup{std::nullopt, SendOutcome::kStoreError, false};
  }
  const std::optional<AuthoritySnapshot>& current = read.value().current;
  if (!current.has_value()) {
    _cache.drop(key);  // the row is gone: no location of it is current
    return Lookup{std::nullopt, SendOutcome::kNotFound, false};
  }
  _cache.confirm_version(key, current->version.value);
  const records::AuthorityRecord& row = current->record;
  if (row.allocation.state != records::AllocationState::kActive) {
    return Lookup{std::nullopt, SendOutcome::kNotReady, false};
  }
  const std::optional<std::uint64_t> rid = messaging::parse_routing_id_hex(row.allocation.descriptor.routing_id_hex);
  if (!rid.has_value()) {
    return Lookup{std::nullopt, SendOutcome::kUnavailable, false};
  }
  const TimeUs read_before = _platform.clock.now_us();
  const store::ReadResult lease_read = _store.read(
      records::owner_lease_preimage(row.owner_id),
      std::min(deadline_us, read_before + _config.store_request_timeout_us));
  if (std::holds_alternative<store::StoreError>(lease_read)) {
    return Lookup{std::nullopt, SendOutcome::kStoreError, false};
  }
  if (std::holds_alternative<store::Missing>(lease_read)) {
    return Lookup{std::nullopt, SendOutcome::kUnavailable, false};  // the owner's lease is gone
  }
  const auto& found = std::get<store::Found>(lease_read);
  records::RecordResult<records::OwnerLeaseRecord> lease = records::decode_owner_lease_record(found.value);
  if (!lease.ok() || !lease_holds(lease.value(), row.owner_id, row.owner_lease_generation, found.now_ms)) {
    return Lookup{std::nullopt, SendOutcome::kUnavailable, false};  // Unavailable after commit (§7.4)
  }
  CachedRoute route;
  route.key = key;
  route.object_generation = row.object_generation;
  route.owner_generation = row.authority_owner_generation;
  route.store_version = current->version.value;
  route.owner = HostRun{row.owner_id, row.owner_lease_generation};
  route.lease_expires_ms = lease.value().expires_at_epoch_ms;
  route.route = *rid;
  route.route_hex = row.allocation.descriptor.routing_id_hex;
  fill(route, found.now_ms, read_before);
  return Lookup{std::move(route), SendOutcome::kRan, false};
}

// Caches a Ready location until the earlier of now + RouteCacheMaxAge and the owner's last
// admission time as its lease record showed it (§7.3).
void ObjectClient::fill(const CachedRoute& route, std::int64_t store_now_ms, TimeUs read_before_us) {
  if (!_cache.enabled()) {
    return;
  }
  const TimeUs now = _platform.clock.now_us();
  const LeaseObservation observed{read_before_us, now, store_now_ms, route.lease_expires_ms};
  const TimeUs owner_last_admission = admission_deadline_us(observed, _config.fencing_margin_us);
  TimeUs expires = std::min(now + _cache.max_age_us(), owner_last_admission);
  if (SPOTCHECK_PLANTED(_config.planted_bugs, kCacheOutlivesOwnerAdmission)) {
    expires = now + _cache.max_age_us();  // planted bug: the owner's admission bound is ignored
  }
  if (expires <= now) {
    return;  // the owner can take no new work by the lease read: nothing to keep
  }
  CachedRoute entry = route;
  entry.expires_us = expires;
  const HostRun& self = _lease.host_run();
  platform::emit_event(
      _platform.events, kinds::kCacheFilled,
      events::RouteCacheFilled{self.owner_id, as_i64(self.lease_generation), records::to_string(route.key.kind),
                               route.key.id, "ready", as_i64(route.object_generation),
                               as_i64(route.owner_generation), as_i64(route.store_version), route.route_hex,
                               route.owner.owner_id, as_i64(route.owner.lease_generation), route.lease_expires_ms,
                               store_now_ms, read_before_us, now, _cache.max_age_us(), _config.fencing_margin_us,
                               expires});
  _cache.put(std::move(entry), now);
}

// Command 52 for `outgoing` over `route` (request 0: a Send, no reply route), announced by
// object.message_sent right before it leaves.
messaging::ObjectMessage ObjectClient::launch(const CachedRoute& route, const Outgoing& outgoing, bool from_cache,
                                              std::uint64_t request) {
  const HostRun& self = _lease.host_run();
  messaging::ObjectMessage message;
  message.request = request;
  message.op_id = outgoing.op;
  message.source_rid_hex = _rid_hex;
  message.source = messaging::WireHostRun{self.owner_id, self.lease_generation};
  message.target = messaging::WireHostRun{route.owner.owner_id, route.owner.lease_generation};
  message.kind = route.key.kind;
  message.id = route.key.id;
  message.object_generation = route.object_generation;
  message.owner_generation = route.owner_generation;
  message.stream = outgoing.stream;
  message.sequence = outgoing.sequence;
  message.payload = outgoing.payload;
  platform::emit_event(_platform.events, kinds::kObjectMessageSent,
                       events::ObjectMessageSent{self.owner_id, as_i64(self.lease_generation),
                                                 records::to_string(route.key.kind), route.key.id,
                                                 as_i64(route.object_generation), as_i64(route.owner_generation),
                                                 as_i64(outgoing.stream), as_i64(outgoing.sequence),
                                                 outgoing.op.hex(), route.route_hex,
                                                 from_cache ? "cache" : "store", as_i64(request)});
  return message;
}

std::optional<messaging::ObjectMessageReply> ObjectClient::exchange(const CachedRoute& route,
                                                                    const Outgoing& outgoing, bool from_cache,
                                                                    TimeUs deadline_us) {
  messaging::Dispatcher::PendingCall call =
      _dispatcher.open_call(messaging::CommandCode::kObjectMessageReply, outgoing.op);
  SPOTCHECK_ASSERT(call.request() != 0);  // 0 is a Send's: no reply route
  const messaging::ObjectMessage message = launch(route, outgoing, from_cache, call.request());
  _dispatcher.send(route.route, messaging::Command{message});
  if (SPOTCHECK_PLANTED(_config.planted_bugs, kResendMessageOnNoReply)) {
    // Planted bug: no reply by half the time left, and the message is sent again; it may have run,
    // so it may run twice.
    const TimeUs now = _platform.clock.now_us();
    std::optional<messaging::ObjectMessageReply> first = call.wait_object(now + (deadline_us - now) / 2);
    if (first.has_value()) {
      return first;
    }
    _dispatcher.send(route.route, messaging::Command{message});
  }
  return call.wait_object(deadline_us);
}

void ObjectClient::drop(const CachedRoute& route, std::string_view reason) {
  if (!_cache.drop(route.key)) {
    return;
  }
  platform::sometimes(_platform.events, platform::Mark::kRouteCacheDropped);
  const HostRun& self = _lease.host_run();
  platform::emit_event(_platform.events, kinds::kCacheDropped,
                       events::RouteCacheUse{self.owner_id, as_i64(self.lease_generation),
                                             records::to_string(route.key.kind), route.key.id,
                                             as_i64(route.store_version), _platform.clock.now_us(),
                                             route.expires_us, reason});
}

void ObjectClient::answered(const ObjectKey& key, const Outgoing& outgoing, std::string_view outcome) {
  const HostRun& self = _lease.host_run();
  platform::emit_event(_platform.events, kinds::kObjectMessageAnswered,
                       events::ObjectMessageAnswered{self.owner_id, as_i64(self.lease_generation),
                                                     records::to_string(key.kind), key.id, as_i64(outgoing.stream),
                                                     as_i64(outgoing.sequence), outgoing.op.hex(), outcome});
}

}  // namespace spotcheck::location::objects
