#include "sim/store_host/store_server.h"
#include "impl/platform/event_kinds.h"

#include "impl/check/check.h"

namespace spotcheck::sim {

StoreServer::StoreServer(World& world, StoreServerConfig config)
    : _world(world),
      _config(config),
      _random(world.stream("store.faults")),
      _location(std::make_unique<store::memory::MemoryLocationStore>([this] { return store_now_ms(); },
                                                                      config.options)),
      _relocation(std::make_unique<store::memory::MemoryRelocationStore>([this] { return store_now_ms(); })) {
  SPOTCHECK_ASSERT_ABORT(!world.process_by_routing_id(config.routing_id).has_value() && "the store's RoutingId is taken");
}

store::StoreNowMs StoreServer::store_now_ms() const {
  return _config.epoch_ms + _world.now_us() / platform::kMicrosPerMilli;
}

void StoreServer::begin_outage() {
  if (!_outage) {
    _outage = true;
    _world.record(kinds::kStoreOutageBegin, {});
  }
}

void StoreServer::end_outage() {
  if (_outage) {
    _outage = false;
    _world.record(kinds::kStoreOutageEnd, {});
  }
}

bool StoreServer::draw(double probability) {
  // Draw only when the fault is on, so turning one fault kind off leaves the stream's other
  // uses as they were.
  return probability > 0.0 && _random.chance(probability);
}

TimeUs StoreServer::draw_delete_hold_us() {
  if (_faults.delete_hold_max_us <= 0) {
    return 0;
  }
  return _random.between(0, _faults.delete_hold_max_us);
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
  _world.network().deliver(_config.routing_id, to, std::move(deliver_reply));
}

}  // namespace spotcheck::sim
