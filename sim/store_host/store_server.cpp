#include "sim/store_host/store_server.h"
#include "impl/platform/event_kinds.h"

#include <algorithm>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "impl/bytes/sha256.h"
#include "impl/check/check.h"

namespace spotcheck::sim {

namespace {

// How long a node freezes under node-pause-on-reply or node-freeze-drop: uniform in [1 s, max_us]
// (in [max_us, max_us] when the longest freeze is under a second).
TimeUs freeze_length_us(platform::Random& random, TimeUs max_us) {
  return random.between(std::min(platform::seconds(1), max_us), max_us);
}

}  // namespace

StoreServer::StoreServer(World& world, StoreServerConfig config)
    : _world(world),
      _config(config),
      _random(world.stream(config.name + ".faults")),
      _pause_random(world.stream(config.name + ".faults/pause-on-reply")),
      _freeze_random(world.stream(config.name + ".faults/freeze-drop")),
      _scan_random(world.stream(config.name + ".faults/scan-expired")),
      _damage_random(world.stream(config.name + ".faults/payload-damage")),
      _location(std::make_unique<store::memory::MemoryLocationStore>([this] { return store_now_ms(); },
                                                                      config.options)),
      _relocation(std::make_unique<store::memory::MemoryRelocationStore>([this] { return store_now_ms(); })) {
  SPOTCHECK_ASSERT_ABORT(!world.process_by_routing_id(config.routing_id).has_value() && "the store's RoutingId is taken");
}

store::StoreNowMs StoreServer::store_now_ms() const {
  return _config.epoch_ms + _config.clock_offset_ms + _world.now_us() / platform::kMicrosPerMilli;
}

void StoreServer::record_outage_event(std::string_view kind) {
  _world.record_event(kind, events::StoreOutage{.server = _config.name});
}

void StoreServer::begin_outage(OutageMode mode) {
  if (!_outage.has_value()) {
    _outage = mode;
    record_outage_event(mode == OutageMode::kStall ? kinds::kStoreStallBegin : kinds::kStoreOutageBegin);
  }
}

void StoreServer::end_outage() {
  if (!_outage.has_value()) {
    return;
  }
  const OutageMode mode = *_outage;
  _outage.reset();
  if (mode == OutageMode::kRefuse) {
    record_outage_event(kinds::kStoreOutageEnd);
    return;
  }
  std::vector<std::function<void()>> stalled = std::exchange(_stalled, {});
  _world.record_event(kinds::kStoreStallEnd,
                      events::StoreStallEnd{.queued = static_cast<std::int64_t>(stalled.size()), .server = _config.name});
  for (std::function<void()>& serve : stalled) {
    serve();  // in arrival order; a new outage cannot begin in between (no task runs here)
  }
}

bool StoreServer::draw(double probability) {
  // Draw only when the fault is on, so turning one fault kind off leaves the stream's other
  // uses as they were.
  return probability > 0.0 && _random.chance(probability);
}

StoreServer::RenewFault StoreServer::draw_renew_fault() {
  if (!draw(_faults.renew_loss)) {
    return RenewFault::kNone;
  }
  switch (_random.below(4)) {
    case 0: return RenewFault::kLost;
    case 1: return RenewFault::kReplyLost;
    case 2: return RenewFault::kRefused;
    default: return RenewFault::kLate;
  }
}

StoreServer::FreezeDrop StoreServer::draw_freeze_drop() {
  if (_faults.freeze_drop <= 0.0 || _faults.freeze_drop_max_us <= 0 || !_freeze_random.chance(_faults.freeze_drop)) {
    return FreezeDrop::kNone;
  }
  return _freeze_random.chance(0.5) ? FreezeDrop::kRequestLost : FreezeDrop::kReplyLost;
}

void StoreServer::freeze_caller(ProcessId node, const char* operation) {
  const TimeUs freeze_us = freeze_length_us(_freeze_random, _faults.freeze_drop_max_us);
  _world.record_event(kinds::kStoreFrozeCaller, events::StoreHold{.node = node, .op = operation, .hold_us = freeze_us});
  _world.pause(node, freeze_us);
}

TimeUs StoreServer::draw_hold_us(ProcessId node, const char* operation, TimeUs deadline_us, RequestKind kind) {
  TimeUs hold_us = 0;
  if (kind == RequestKind::kDeletingWrite && _faults.delete_hold_max_us > 0) {
    hold_us = _random.between(0, _faults.delete_hold_max_us);
    if (hold_us > 0) {
      _world.record_event(kinds::kStoreWriteHeld, events::StoreHold{.node = node, .op = operation, .hold_us = hold_us});
    }
  }
  if (kind == RequestKind::kLateRenew) {
    // Up to kRenewLateMaxUs past the caller's deadline: before or after the re-read, and sometimes
    // after the ExpiresAt the renew was meant to extend.
    hold_us += hold_past_deadline(node, operation, deadline_us, _random.between(0, kRenewLateMaxUs));
  }
  if (kind != RequestKind::kRead && draw(_faults.late_apply)) {
    // A drawn while past the caller's deadline: half the time within a few milliseconds (the
    // caller's re-read and retry are in flight then: the write may land before the re-read,
    // between it and the retry, or after the retry), else up to the maximum.
    const TimeUs extra_max_us = std::max<TimeUs>(0, _faults.late_apply_max_us);
    const TimeUs extra_us = _random.chance(0.5) ? _random.between(0, std::min(extra_max_us, kLateSoonUs))
                                                : _random.between(0, extra_max_us);
    hold_us += hold_past_deadline(node, operation, deadline_us, extra_us);
  }
  return hold_us;
}

TimeUs StoreServer::hold_past_deadline(ProcessId node, const char* operation, TimeUs deadline_us, TimeUs extra_us) {
  // Past the caller's deadline on its own clock (it has given up by then), then extra_us more.
  const TimeUs gave_up_us = std::max(_world.now_us(), _world.virtual_from_local(node, deadline_us));
  const TimeUs late_us = gave_up_us - _world.now_us() + 1 + extra_us;
  _world.record_event(kinds::kStoreWriteLate, events::StoreHold{.node = node, .op = operation, .hold_us = late_us});
  return late_us;
}

void StoreServer::arrive(ProcessId node, const char* operation, TimeUs deadline_us, RequestKind kind,
                         std::function<void()> serve) {
  const TimeUs hold_us = draw_hold_us(node, operation, deadline_us, kind);
  if (hold_us == 0) {
    serve_or_stall(node, operation, std::move(serve));
    return;
  }
  _world.at(_world.now_us() + hold_us, [this, node, operation, serve = std::move(serve)]() mutable {
    serve_or_stall(node, operation, std::move(serve));
  });
}

void StoreServer::serve_or_stall(ProcessId node, const char* operation, std::function<void()> serve) {
  if (_outage == OutageMode::kStall && _stalled.size() < kStalledMax) {
    _world.record_event(kinds::kStoreStalled, events::StoreOp{.node = node, .op = operation});
    _stalled.push_back(std::move(serve));
    return;
  }
  serve();  // a refusing outage (or a full stall queue) refuses inside
}

namespace {

// The key as text: its NUL separators shown as '/' (key preimages join their parts with NUL).
std::string printable_key(const store::Key& key) {
  std::string text(key);
  std::replace(text.begin(), text.end(), '\0', '/');
  return text;
}

// One mutation as store.applied names it.
struct MutationView {
  const store::Key* key = nullptr;
  std::string_view what;
  std::string_view value;
  std::int64_t delta = 0;
};

MutationView view_of(const store::Mutation& mutation) {
  if (const auto* put = std::get_if<store::Put>(&mutation)) {
    return {&put->key, "put", std::string_view(put->value), 0};
  }
  if (const auto* removal = std::get_if<store::Delete>(&mutation)) {
    return {&removal->key, "delete", {}, 0};
  }
  const auto& increment = std::get<store::Increment>(mutation);
  return {&increment.key, "increment", {}, increment.delta};
}

}  // namespace

store::PutResult StoreServer::apply_payload_put(ProcessId node, const store::PayloadPut& request) {
  store::PutResult result = _relocation->put(request, platform::kNever);
  const auto* stored = std::get_if<store::Stored>(&result);
  if (stored != nullptr && !stored->already_present) {
    const std::string sha256 = bytes::sha256_hex(request.payload);
    _world.record_event(kinds::kStorePayloadApplied,
                        events::StorePayloadApplied{.node = node,
                                                    .op = "put",
                                                    .reference = request.reference,
                                                    .sha256 = sha256,
                                                    .size_bytes = static_cast<std::int64_t>(request.payload.size()),
                                                    .server = _config.name,
                                                    .store_now_ms = stored->now_ms});
  }
  return result;
}

store::GetResult StoreServer::serve_payload_get(ProcessId node, const store::Key& reference) {
  store::GetResult result = _relocation->get(reference, platform::kNever);
  const auto* found = std::get_if<store::PayloadFound>(&result);
  if (found == nullptr) {
    return result;
  }
  auto it = _payload_reads.find(reference);
  if (it != _payload_reads.end() && _world.now_us() < it->second.invisible_until_us) {
    return store::PayloadMissing{found->now_ms};
  }
  if (_faults.payload_damage <= 0.0) {
    return result;
  }
  if (it == _payload_reads.end()) {
    if (_payload_reads.size() >= kPayloadsTrackedMax) {
      return result;
    }
    it = _payload_reads.emplace(reference, PayloadReads{}).first;
  }
  // The first read is the writer's own verification; a later one (a restore) may meet damage.
  if (it->second.found++ == 0 || it->second.damaged || !_damage_random.chance(_faults.payload_damage)) {
    return result;
  }
  const auto how = static_cast<PayloadDamage>(_damage_random.below(3));
  const TimeUs invisible_for_us = _damage_random.between(platform::millis(1), kPayloadInvisibleMaxUs);
  const auto flip_at = static_cast<std::size_t>(_damage_random.below(std::max<std::size_t>(1, found->payload.size())));
  const bool damaged = damage_payload(node, reference, how, invisible_for_us, flip_at);
  SPOTCHECK_ASSERT_ABORT(damaged);
  return serve_payload_get(node, reference);  // as the damage left it (no second draw: damaged once)
}

bool StoreServer::damage_payload(ProcessId node, const store::Key& reference, PayloadDamage how,
                                 TimeUs invisible_for_us, std::size_t flip_at) {
  const store::GetResult held = _relocation->get(reference, platform::kNever);
  const auto* found = std::get_if<store::PayloadFound>(&held);
  if (found == nullptr || (_payload_reads.size() >= kPayloadsTrackedMax && !_payload_reads.contains(reference))) {
    return false;
  }
  PayloadReads& reads = _payload_reads[reference];
  reads.damaged = true;
  _world.count_mark(platform::Mark::kPayloadDamageHit);
  events::StorePayloadDamaged damaged{
      .node = node, .reference = reference, .how = "", .sha256 = "", .invisible_until_us = 0, .server = _config.name};
  std::string sha256;
  switch (how) {
    case PayloadDamage::kInvisible:
      reads.invisible_until_us = _world.now_us() + invisible_for_us;
      damaged.how = "invisible";
      damaged.invisible_until_us = reads.invisible_until_us;
      break;
    case PayloadDamage::kLost: {
      const store::DeleteResult removed = _relocation->remove(reference, platform::kNever);
      SPOTCHECK_ASSERT_ABORT(std::holds_alternative<store::Deleted>(removed));
      damaged.how = "lost";
      break;
    }
    case PayloadDamage::kCorrupted: {
      store::Bytes bytes = found->payload;
      if (!bytes.empty()) {
        const std::size_t at = flip_at % bytes.size();
        bytes[at] = static_cast<char>(bytes[at] ^ 0x01);
      } else {
        bytes = "x";
      }
      sha256 = bytes::sha256_hex(bytes);
      const bool replaced = _relocation->replace_bytes(reference, std::move(bytes));
      SPOTCHECK_ASSERT_ABORT(replaced);
      damaged.how = "corrupted";
      damaged.sha256 = sha256;
      break;
    }
  }
  _world.record_event(kinds::kStorePayloadDamaged, damaged);
  return true;
}

store::DeleteResult StoreServer::apply_payload_remove(ProcessId node, const store::Key& reference) {
  store::DeleteResult result = _relocation->remove(reference, platform::kNever);
  const auto* deleted = std::get_if<store::Deleted>(&result);
  if (deleted != nullptr && deleted->was_present) {
    _world.record_event(kinds::kStorePayloadApplied,
                        events::StorePayloadApplied{.node = node,
                                                    .op = "remove",
                                                    .reference = reference,
                                                    .sha256 = "",
                                                    .size_bytes = 0,
                                                    .server = _config.name,
                                                    .store_now_ms = deleted->now_ms});
  }
  return result;
}

store::WriteResult StoreServer::apply_location_write(ProcessId node, const store::WriteRequest& request) {
  SPOTCHECK_ASSERT_ABORT(!request.mutations.empty());
  std::vector<std::int64_t> before;
  before.reserve(request.mutations.size());
  for (const store::Mutation& mutation : request.mutations) {
    const std::optional<store::StoreVersion> version = _location->current_version(*view_of(mutation).key);
    before.push_back(version.has_value() ? platform::as_i64(version->value) : 0);
  }
  std::optional<WriteJournal::Entry> journal_entry;
  if (_journal.on()) {
    journal_entry = WriteJournal::Entry{_world.now_us(), _location->last_version(), {}};
    for (const store::Mutation& mutation : request.mutations) {
      const store::Key& key = *view_of(mutation).key;
      journal_entry->before.push_back(WriteJournal::Before{key, _location->current_record(key)});
    }
  }
  store::WriteResult result = _location->write(request, platform::kNever);
  const auto* applied = std::get_if<store::Applied>(&result);
  if (applied == nullptr) {
    return result;
  }
  if (journal_entry.has_value()) {
    _journal.note(std::move(*journal_entry));
  }
  SPOTCHECK_ASSERT_ABORT(applied->outcomes.size() == request.mutations.size());
  const auto count = static_cast<std::int64_t>(request.mutations.size());
  for (std::size_t i = 0; i < request.mutations.size(); ++i) {
    const MutationView mutation = view_of(request.mutations[i]);
    const store::MutationOutcome& outcome = applied->outcomes[i];
    const std::string key = printable_key(*mutation.key);
    _world.record_event(kinds::kStoreApplied,
                        events::StoreApplied{.node = node,
                                             .key = key,
                                             .mutation = mutation.what,
                                             .part = static_cast<std::int64_t>(i) + 1,
                                             .mutations = count,
                                             .old_version = before[i],
                                             .new_version = platform::as_i64(outcome.version.value),
                                             .value = mutation.value,
                                             .delta = mutation.delta,
                                             .counter = mutation.what == "increment" ? outcome.counter : 0,
                                             .store_now_ms = applied->now_ms});
  }
  return result;
}

void StoreServer::jump_clock(std::int64_t by_ms) {
  SPOTCHECK_ASSERT_ABORT(by_ms > 0);
  _config.clock_offset_ms += by_ms;
  _world.record_event(kinds::kStoreClockJumped, events::StoreClockJumped{.server = _config.name, .by_ms = by_ms});
}

std::size_t StoreServer::lose_writes(TimeUs lag_us) {
  SPOTCHECK_ASSERT_ABORT(_journal.on());
  SPOTCHECK_ASSERT_ABORT(lag_us > 0);
  const TimeUs since_us = _world.now_us() - lag_us;
  const std::vector<WriteJournal::Entry> lost = _journal.take_since(since_us);
  if (lost.empty()) {
    return 0;
  }
  _world.record_event(kinds::kStoreWritesLost,
                      events::StoreWritesLost{.server = _config.name,
                                              .writes = static_cast<std::int64_t>(lost.size()),
                                              .since_us = since_us});
  for (const WriteJournal::Entry& entry : lost) {  // newest first: each key ends at its oldest before-image
    for (const WriteJournal::Before& before : entry.before) {
      const std::optional<store::StoreVersion> now_version = _location->current_version(before.key);
      const std::int64_t restored = before.record.has_value() ? platform::as_i64(before.record->version.value) : 0;
      _world.record_event(kinds::kStoreWriteLost,
                          events::StoreWriteLost{.key = printable_key(before.key),
                                                 .lost_version = now_version ? platform::as_i64(now_version->value) : 0,
                                                 .restored_version = restored});
      _location->restore_for_failover(before.key, before.record);
    }
  }
  _location->rewind_versions_for_failover(lost.back().last_version_before);
  return lost.size();
}

store::ScanResult StoreServer::serve_location_scan(ProcessId node, store::ScanRequest request) {
  if (_faults.scan_expiry > 0.0) {
    if (request.continuation.has_value() && _scan_random.chance(_faults.scan_expiry)) {
      _world.record_event(kinds::kStoreScanExpired, events::StoreOp{.node = node, .op = "scan"});
      return store::ScanExpired{store_now_ms()};
    }
    // A smaller page than asked is the provider's right (ScanRequest::max_entries is a bound).
    request.max_entries = std::min<std::uint32_t>(request.max_entries, static_cast<std::uint32_t>(_scan_random.between(1, 3)));
  }
  return _location->scan(request, platform::kNever);
}

void StoreServer::send_reply(ProcessId node, const char* operation, TimeUs deadline_us,
                             std::function<void()> deliver_reply) {
  const RoutingId to = _world.process_routing_id(node);
  if (draw(_faults.reply_loss)) {
    _world.record_event(kinds::kStoreReplyLost, events::StoreOp{.node = node, .op = operation});
    return;
  }
  if (draw(_faults.reply_delay)) {
    // Hold the reply until the caller's deadline has passed on its own clock (plus a margin
    // for drift), then send it: it arrives to nobody waiting.
    const TimeUs remaining_us = std::max<TimeUs>(0, deadline_us - _world.local_now_us(node));
    const TimeUs hold_us = remaining_us + remaining_us / 100 + platform::millis(1);
    _world.record_event(kinds::kStoreReplyDelayed, events::StoreHold{.node = node, .op = operation, .hold_us = hold_us});
    _world.at(_world.now_us() + hold_us, [this, to, deliver_reply = std::move(deliver_reply)]() mutable {
      _world.network().deliver(_config.routing_id, to, std::move(deliver_reply));
    });
    return;
  }
  if (_faults.pause_on_reply_max_us > 0 && _faults.pause_on_reply > 0.0 && _pause_random.chance(_faults.pause_on_reply)) {
    // The node freezes as the reply reaches it, before it acts on it (a GC pause between a
    // planning read's answer and the write it plans, §5).
    const TimeUs pause_us = freeze_length_us(_pause_random, _faults.pause_on_reply_max_us);
    deliver_reply = [this, node, operation, pause_us, deliver = std::move(deliver_reply)] {
      deliver();
      if (_faults.pause_on_reply <= 0.0) {
        return;  // the reply arrived after the faults stopped (e.g. its node was paused): no pause now
      }
      _world.record_event(kinds::kStorePausedCaller, events::StoreHold{.node = node, .op = operation, .hold_us = pause_us});
      _world.pause(node, pause_us);
    };
  }
  _world.network().deliver(_config.routing_id, to, std::move(deliver_reply));
}

}  // namespace spotcheck::sim
