#include "impl/location/messaging/dispatcher.h"

#include <utility>

#include "impl/location/check.h"
#include "impl/location/messaging/messaging_events.h"

namespace spotcheck::location::messaging {

using platform::Field;

Dispatcher::Dispatcher(platform::Platform& platform, DispatcherConfig config)
    : _platform(platform), _config(config) {
  LOCATION_ASSERT(_config.poll_interval_us > 0);
  LOCATION_ASSERT(_config.messages_max > 0);
}

Dispatcher::~Dispatcher() {
  // Open calls belong to tasks that are gone by now (a host run unwinds its tasks first).
  _calls.clear();
}

void Dispatcher::start() {
  LOCATION_ASSERT(!_running);
  _running = true;
  _stop_requested = false;
  _platform.tasks.spawn("dispatcher", [this] { loop(); });
}

void Dispatcher::loop() {
  struct Running {
    bool& flag;
    ~Running() { flag = false; }
  } running{_running};
  // Bounded: every wake-up (a message or a poll) counts.
  for (std::uint64_t wakes = 0; wakes < _config.messages_max && !_stop_requested; ++wakes) {
    std::optional<platform::Envelope> envelope =
        _platform.transport.receive(_platform.clock.now_us() + _config.poll_interval_us);
    if (!envelope.has_value()) {
      continue;
    }
    std::optional<Command> command = decode(envelope->bytes);
    if (!command.has_value()) {
      _platform.events.emit(events::kUndecodable,
                            {Field::str("from", routing_id_hex(envelope->from)),
                             Field::num("size_bytes", static_cast<std::int64_t>(envelope->bytes.size()))});
      continue;
    }
    dispatch(envelope->from, std::move(*command));
  }
}

void Dispatcher::dispatch(platform::RoutingId from, Command command) {
  if (auto* create = std::get_if<CreateCommand>(&command)) {
    if (_on_create) {
      _on_create(from, std::move(*create));
    }
    return;
  }
  if (auto* close = std::get_if<CloseCommand>(&command)) {
    if (_on_close) {
      _on_close(from, std::move(*close));
    }
    return;
  }
  deliver_reply(from, std::get<FinalResultReply>(std::move(command)));
}

void Dispatcher::deliver_reply(platform::RoutingId from, FinalResultReply reply) {
  auto it = _calls.find(reply.request);
  if (it == _calls.end() || it->second.reply.has_value() || it->second.taken) {
    _platform.events.emit(events::kLateReply,
                          {Field::str("from", routing_id_hex(from)),
                           Field::num("request", static_cast<std::int64_t>(reply.request)),
                           Field::str("op_id", reply.op_id.hex()),
                           Field::str("outcome", to_string(reply.outcome))});
    return;
  }
  it->second.reply = std::move(reply);
  it->second.gate->open();
}

void Dispatcher::send(platform::RoutingId to, const Command& command) {
  _platform.transport.send(to, encode(command));
}

Dispatcher::PendingCall Dispatcher::open_call() {
  LOCATION_ASSERT(_calls.size() < _config.open_calls_max);
  const std::uint64_t request = _next_request;
  ++_next_request;
  auto [it, inserted] = _calls.emplace(request, Call{_platform.tasks.make_gate(), std::nullopt, false});
  LOCATION_ASSERT(inserted);
  LOCATION_ASSERT(!it->second.gate->is_open());
  return PendingCall(this, request);
}

Dispatcher::PendingCall::PendingCall(PendingCall&& other) noexcept
    : _dispatcher(std::exchange(other._dispatcher, nullptr)), _request(other._request) {}

Dispatcher::PendingCall::~PendingCall() { close(); }

void Dispatcher::PendingCall::close() {
  if (_dispatcher == nullptr) {
    return;
  }
  _dispatcher->_calls.erase(_request);
  _dispatcher = nullptr;
}

std::optional<FinalResultReply> Dispatcher::PendingCall::wait(platform::TimeUs deadline_us) {
  LOCATION_ASSERT(_dispatcher != nullptr);
  auto it = _dispatcher->_calls.find(_request);
  LOCATION_ASSERT(it != _dispatcher->_calls.end());
  if (it->second.taken) {
    return std::nullopt;
  }
  if (!it->second.reply.has_value()) {
    // The gate outlives the wait: the entry is erased only by close(), on this task.
    it->second.gate->wait_until(deadline_us);
    it = _dispatcher->_calls.find(_request);
    LOCATION_ASSERT(it != _dispatcher->_calls.end());
  }
  if (!it->second.reply.has_value()) {
    return std::nullopt;
  }
  it->second.taken = true;
  std::optional<FinalResultReply> reply = std::move(it->second.reply);
  it->second.reply.reset();
  LOCATION_ASSERT(reply->request == _request);
  return reply;
}

}  // namespace spotcheck::location::messaging
